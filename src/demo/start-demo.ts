// The embedded demo behind `npm start`: the local documentation service in this process (in
// memory, with an admin for docsync and a reviewer who approves), one space for the demo docs, and
// the demo repository on disk. It answers the values config/demo.yaml reads from DOCSYNC_DEMO_*.
// Each part registers its stop with the shutdown owner, which closes them after the daemon.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createDocsApiClient } from '../api/create-docs-api-client.js';
import { createEmulator } from '../emulator/create-emulator.js';
import type { Shutdown } from '../lifecycle/shutdown.js';
import type { Logger } from '../log/create-logger.js';
import { DEMO_EDIT_PAGE } from './demo-content.js';
import { DemoReviewer } from './demo-reviewer.js';
import { prepareDemoRepo } from './prepare-demo-repo.js';

export interface DemoOptions {
  /** The demo folder: its repository, its Redis files, docsync's mirrors. */
  dir: string;
  log: Logger;
  shutdown: Shutdown;
}

export interface Demo {
  /** The variables config/demo.yaml is written with. */
  env: Record<string, string>;
  /** The working copy whose docs folder is watched. */
  repo: string;
  /** The page to edit to watch a sync. */
  editFile: string;
}

const REVIEW_INTERVAL_MS = 1000;

export async function startDemo(options: DemoOptions): Promise<Demo> {
  const { dir, log, shutdown } = options;
  const repo = join(dir, 'repo');
  await prepareDemoRepo(repo, log.child({ component: 'demo' }));

  // Fresh tokens each run: the service lives in memory, and nobody else should reach it.
  const adminToken = randomBytes(24).toString('base64url');
  const reviewerToken = randomBytes(24).toString('base64url');
  const service = await createEmulator({
    members: [
      { name: 'Demo Admin', token: adminToken, role: 'admin' },
      { name: 'Dana Reviewer', token: reviewerToken, role: 'review' },
    ],
    log: log.child({ component: 'demo-service' }),
  });
  shutdown.add('demo service', () => service.close());
  const baseUrl = `${await service.listen('127.0.0.1', 0)}/v1`;

  const apiLog = log.child({ component: 'demo' });
  const admin = createDocsApiClient({ baseUrl, token: adminToken, timeout: 30_000 }, { logger: apiLog });
  let spaceId: string;
  try {
    spaceId = (await admin.spaces.create(service.orgId, { title: 'Demo docs' })).id;
  } finally {
    await admin.close();
  }
  const reviewerApi = createDocsApiClient(
    { baseUrl, token: reviewerToken, timeout: 30_000 },
    { logger: apiLog },
  );
  const reviewer = new DemoReviewer({
    api: reviewerApi,
    space: spaceId,
    log: apiLog,
    intervalMs: REVIEW_INTERVAL_MS,
  });
  shutdown.add('demo reviewer', async () => {
    await reviewer.stop();
    await reviewerApi.close();
  });
  reviewer.start();
  log.info({ service: baseUrl, org: service.orgId, space: spaceId, repo }, 'demo service started');
  return {
    env: {
      DOCSYNC_DEMO_DIR: dir,
      DOCSYNC_DEMO_SERVICE_URL: baseUrl,
      DOCSYNC_DEMO_TOKEN: adminToken,
      DOCSYNC_DEMO_ORG: service.orgId,
      DOCSYNC_DEMO_SPACE: spaceId,
      DOCSYNC_DEMO_REPO: repo,
    },
    repo,
    editFile: join(repo, DEMO_EDIT_PAGE),
  };
}
