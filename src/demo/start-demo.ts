// The embedded demo behind `npm start`: the local documentation service in this process (in
// memory, with an admin for docsync and a reviewer who approves), one space for the demo docs, and
// the demo repository on disk. It answers the values config/demo.yaml reads from DOCSYNC_DEMO_*.
// Given a local service (DOCSYNC_DEMO_SERVICE_URL: the docs-service container of docker-compose.yml)
// it seeds that one over HTTP instead of starting its own.
// Each part registers its stop with the shutdown owner, which closes them after the daemon.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createDocsApiClient } from '../api/create-docs-api-client.js';
import { createEmulator } from '../emulator/create-emulator.js';
import { DocsyncError } from '../errors/docsync-error.js';
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
  /**
   * The environment: DOCSYNC_DEMO_SERVICE_URL, DOCSYNC_DEMO_TOKEN (its admin) and
   * DOCSYNC_DEMO_REVIEWER_TOKEN (a member with the review role) name a local service to seed instead
   * of starting one.
   */
  env?: Readonly<Record<string, string | undefined>>;
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

  const service = await demoService(options);
  const { baseUrl, adminToken, reviewerToken } = service;
  const apiLog = log.child({ component: 'demo' });
  const admin = createDocsApiClient({ baseUrl, token: adminToken, timeout: 30_000 }, { logger: apiLog });
  let orgId: string;
  let spaceId: string;
  try {
    // A service of its own has one organization; a given one's first is its admin's default.
    const first = service.orgId ?? (await admin.orgs.list()).items[0]?.id;
    if (first === undefined)
      throw new DocsyncError(
        'DEMO_NO_ORGANIZATION',
        `the service at ${baseUrl} lists no organization for DOCSYNC_DEMO_TOKEN: give the token of an organization's admin`,
      );
    orgId = first;
    spaceId = (await admin.spaces.create(orgId, { title: 'Demo docs' })).id;
  } finally {
    await admin.close();
  }
  if (reviewerToken === undefined) {
    log.warn(
      { service: baseUrl, space: spaceId },
      'no demo reviewer: DOCSYNC_DEMO_REVIEWER_TOKEN is unset, change requests wait for an approval',
    );
  } else {
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
  }
  log.info({ service: baseUrl, org: orgId, space: spaceId, repo }, 'demo service started');
  return {
    env: {
      DOCSYNC_DEMO_DIR: dir,
      DOCSYNC_DEMO_SERVICE_URL: baseUrl,
      DOCSYNC_DEMO_TOKEN: adminToken,
      DOCSYNC_DEMO_ORG: orgId,
      DOCSYNC_DEMO_SPACE: spaceId,
      DOCSYNC_DEMO_REPO: repo,
      // A given service outlives this process and its Redis may too: each run's new space gets keys
      // of its own, so nothing remembered of an earlier run's space stops this one's import.
      DOCSYNC_DEMO_REDIS_PREFIX: service.embedded ? 'docsync' : `docsync-demo-${spaceId}`,
    },
    repo,
    editFile: join(repo, DEMO_EDIT_PAGE),
  };
}

interface DemoService {
  baseUrl: string;
  adminToken: string;
  reviewerToken: string | undefined;
  /** Known for the embedded service; a given one's is asked for. */
  orgId?: string;
  embedded: boolean;
}

/**
 * The service the demo seeds: the local service given by DOCSYNC_DEMO_SERVICE_URL with its admin's
 * and reviewer's tokens (the docs-service container of docker-compose.yml), or else one of its own
 * in this process, in memory, with fresh tokens nobody else knows.
 */
async function demoService(options: DemoOptions): Promise<DemoService> {
  const env = options.env ?? {};
  const given = env.DOCSYNC_DEMO_SERVICE_URL;
  if (given !== undefined && given !== '') {
    return {
      baseUrl: given,
      adminToken: env.DOCSYNC_DEMO_TOKEN ?? '',
      reviewerToken: env.DOCSYNC_DEMO_REVIEWER_TOKEN || undefined,
      embedded: false,
    };
  }
  const adminToken = randomBytes(24).toString('base64url');
  const reviewerToken = randomBytes(24).toString('base64url');
  const service = await createEmulator({
    members: [
      { name: 'Demo Admin', token: adminToken, role: 'admin' },
      { name: 'Dana Reviewer', token: reviewerToken, role: 'review' },
    ],
    log: options.log.child({ component: 'demo-service' }),
  });
  options.shutdown.add('demo service', () => service.close());
  const baseUrl = `${await service.listen('127.0.0.1', 0)}/v1`;
  return { baseUrl, adminToken, reviewerToken, orgId: service.orgId, embedded: true };
}
