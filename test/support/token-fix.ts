// A wrong service token, then the right one, for the tests that show failed work runs again once
// the token is fixed: a daemon configured with a wrong token and restarted with the right one, or
// a running service that refuses the daemon's token for a while and then accepts it again.
import { JOBS } from '../../jobs/registry.js';
import { userIdOf } from '../../src/emulator/create-emulator.js';
import type { FaultConfig } from '../../src/emulator/faults.js';
import { RedisMappingStateStore } from '../../src/state/redis-mapping-state-store.js';
import { createTestRepo, type TestRepo } from './git-repos.js';
import { addRevision, editInService, findPage, testPage } from './service-content.js';
import { startTestDaemon, type TestDaemon } from './start-test-daemon.js';
import { callApi, createTestSpace, startTestEmulator, type TestEmulator } from './start-test-emulator.js';
import { tempDir, testRedis, uniquePrefix } from './test-context.js';
import { waitFor } from './wait-for.js';

/** The poll interval of the mappings these tests configure (`poll: 1s`). */
export const POLL_MS = 1000;

/**
 * How long the tests give the work after the fix: one poll interval, for the poll to queue the work
 * again, and the time the work itself takes on a loaded machine (a git fetch, a bundle, the calls).
 */
export const FIX_TO_DONE_MS = POLL_MS + 9000;

export interface DaemonSetup {
  prefix: string;
  dataDir: string;
  emulator: TestEmulator;
  /** The configuration after the `service:` line: mappings, specs. */
  yaml: string;
}

export interface TokenFixWorld {
  emulator: TestEmulator;
  space: string;
  repo: TestRepo;
  /** The commit of `files`, pushed. */
  sha: string;
  /** The state of the mapping `docs` the configuration names. */
  state: RedisMappingStateStore;
  setup: DaemonSetup;
}

export interface TokenFixWorldOptions {
  /** For the Redis prefix. */
  name: string;
  /** The repository's first commit. */
  files: Record<string, string>;
  /** The configuration after the `service:` line, for the space, the bare remote, the organization. */
  yaml: (space: string, remote: string, org: string) => string;
  /** Done to the space before anything else (content it holds from the start). */
  prepare?: (emulator: TestEmulator, space: string) => void;
}

/** A local service with a space, a repository with one commit pushed, a Redis prefix, a data folder. */
export async function tokenFixWorld(options: TokenFixWorldOptions): Promise<TokenFixWorld> {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  options.prepare?.(emulator, space);
  const repo = await createTestRepo();
  const sha = await repo.commit(options.files, 'First docs');
  await repo.push();
  const prefix = uniquePrefix(`${options.name}-token`);
  const state = new RedisMappingStateStore(testRedis(prefix), prefix);
  const yaml = options.yaml(space, repo.remote, emulator.orgId);
  const setup = { prefix, dataDir: await tempDir('daemon-data'), emulator, yaml };
  return { emulator, space, repo, sha, state, setup };
}

/** A mapping `docs`, git to space, whose git poll runs every second, and two pages in git. */
export function importTokenFixWorld(name: string): Promise<TokenFixWorld> {
  return tokenFixWorld({
    name,
    files: { 'docs/README.md': '# Welcome\n', 'docs/install.md': '# Install\n' },
    yaml: (space, remote) => `mappings:
  - { name: docs, space: ${space}, git: { repo: ${remote}, branch: main, dir: docs, poll: 1s } }
`,
  });
}

/** The pages the export world starts with, in the space and in git alike. */
const EXPORT_README = '# Welcome\n\nSee [install](install.md).\n';
const EXPORT_INSTALL = '# Install\n\nRun it.\n';

/**
 * A mapping `docs`, space to git, whose space poll runs every second, and a space holding what git
 * holds, so that an edit a test makes in the service is the only difference.
 */
export function exportTokenFixWorld(name: string): Promise<TokenFixWorld> {
  return tokenFixWorld({
    name,
    prepare: (emulator, space) =>
      addRevision(emulator.emulator, { spaceId: space }, [
        {
          ...testPage('pg_readme', 'welcome'),
          title: 'Welcome',
          sourcePath: 'README.md',
          markdown: EXPORT_README,
        },
        {
          ...testPage('pg_install', 'install'),
          title: 'Install',
          sourcePath: 'install.md',
          markdown: EXPORT_INSTALL,
        },
      ]),
    files: { 'docs/README.md': EXPORT_README, 'docs/install.md': EXPORT_INSTALL },
    yaml: (space, remote) => `mappings:
  - name: docs
    space: ${space}
    direction: space-to-git
    git: { repo: ${remote}, branch: main, dir: docs, poll: 1s }
    export: { poll: 1s, author: { name: Docs Bot, email: docs-bot@example.com } }
`,
  });
}

/** A writer's edit of README.md in the export world's space: the new revision's id. */
export function editReadme(test: TestEmulator, space: string): string {
  return editInService(test.emulator, { spaceId: space }, (pages) => {
    findPage(pages, 'README.md').markdown = '# Welcome\n\nWelcome aboard.\n';
  }).id;
}

/** docsync with a token the service never accepted. */
export function startWithWrongToken(setup: DaemonSetup): Promise<TestDaemon> {
  const service = `service: { baseUrl: "${setup.emulator.baseUrl}", token: wrong-token-for-the-test }\n`;
  return startTestDaemon({
    prefix: setup.prefix,
    dataDir: setup.dataDir,
    jobs: JOBS,
    yaml: `${service}${setup.yaml}`,
  });
}

/** docsync with the service's admin token, on the same Redis prefix and data folder as before. */
export function startWithRightToken(setup: DaemonSetup): Promise<TestDaemon> {
  return startTestDaemon({
    prefix: setup.prefix,
    dataDir: setup.dataDir,
    jobs: JOBS,
    service: setup.emulator,
    yaml: setup.yaml,
  });
}

/** Stops a daemon as SIGTERM does, and waits until it has stopped. */
export async function stopDaemon(daemon: TestDaemon): Promise<void> {
  await daemon.shutdown.run('restart for the new token');
}

/**
 * The running service refuses the admin's token (401, as for a revoked token) until `accept` is
 * called. The local service fixes its tokens when it starts and has no call that adds a member, so
 * the member is disabled and enabled again in its state, as its admin would do in the service.
 */
export function refuseAdminToken(test: TestEmulator): { accept(): void } {
  const member = test.emulator.state.orgs[test.orgId]?.members[userIdOf('Admin')];
  if (member === undefined) throw new Error('refuseAdminToken: the local service has no Admin member');
  member.disabled = true;
  return {
    accept() {
      member.disabled = false;
    },
  };
}

/**
 * The running service answers 401 to the requests a job makes with the token (`method` on a path
 * matching `path`), while the polls that queue the job still read with it; through its fault
 * control, until `accept` is called.
 */
export async function refuseTokenFor(
  test: TestEmulator,
  method: string,
  path: string,
): Promise<{ accept(): Promise<void> }> {
  const faults = (forced: FaultConfig['forced']) =>
    callApi(`${test.origin}/_emulator/faults`, test.tokens.reader, 'PUT', { forced });
  const answer = await faults([{ status: 401, method, path, times: 1_000_000 }]);
  if (answer.status !== 200) throw new Error(`refuseTokenFor: status ${answer.status}`);
  return {
    async accept() {
      await faults([]);
    },
  };
}

/** The first log line of a job of `name` that failed for good, once one did. */
export function failedRun(daemon: TestDaemon, name: string): Promise<Record<string, unknown>> {
  return waitFor(
    () =>
      daemon.lines.find(
        (line) =>
          line.name === name &&
          (line.msg === 'job failed permanently' || line.msg === 'job failed, attempts used up'),
      ),
    `a failed run of ${name}`,
  );
}
