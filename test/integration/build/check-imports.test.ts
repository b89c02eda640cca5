// The import boundaries of src/ and jobs/ as `npm run lint` enforces them (between docsync and its
// local service, issue 40; of the queue layer and the job folders, issue 41): run as lint runs it, on
// small source trees written for the test, and on this repository.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../../../src/build/check-imports.mjs');
const REPO = join(import.meta.dirname, '../../..');

const roots: string[] = [];

afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'check-imports-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

function check(root: string) {
  const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
  return { status: run.status, stderr: run.stderr };
}

describe('the import check of npm run lint', () => {
  it('refuses an import of docsync code from the local service, naming file, line, rule and fix', async () => {
    const root = await tree({
      'src/emulator/routes/render-page.ts':
        "// Renders a page.\nimport { z } from 'zod';\nimport { readFolder } from '../../content/folder-to-tree.js';\n",
      'src/content/folder-to-tree.ts': 'export const readFolder = 1;\n',
    });
    const { status, stderr } = check(root);
    expect(status).toBe(1);
    expect(stderr).toContain(
      "src/emulator/routes/render-page.ts:3: imports '../../content/folder-to-tree.js' (src/content/folder-to-tree.js)\n" +
        '  rule: the local service (src/emulator/) imports only itself, src/api/schemas/, src/log/ and src/errors/\n' +
        '  fix: give the local service its own code for this',
    );
    expect(stderr).toContain('1 import(s) cross a folder boundary');
  });

  it('refuses type-only imports, re-exports and dynamic imports across the boundary, in both directions and from jobs/', async () => {
    const root = await tree({
      'src/emulator/a.ts': "import type { Config } from '../config/config-schema.js';\n",
      'src/emulator/b.ts': "export { blobId } from '../content/folder-bytes.js';\n",
      'src/queue/c.ts': "const emulator = await import('../emulator/create-emulator.js');\n",
      'src/api/schemas/d.ts': "import { apiPath } from '../api-path.js';\n",
      'jobs/e.ts': "import { Faults } from '../src/emulator/faults.js';\n",
    });
    const { status, stderr } = check(root);
    expect(status).toBe(1);
    expect(stderr).toContain("src/emulator/a.ts:1: imports '../config/config-schema.js'");
    expect(stderr).toContain("src/emulator/b.ts:1: imports '../content/folder-bytes.js'");
    expect(stderr).toContain(
      "src/queue/c.ts:1: imports '../emulator/create-emulator.js' (src/emulator/create-emulator.js)\n" +
        '  rule: docsync does not import the local service (src/emulator/)',
    );
    expect(stderr).toContain("src/api/schemas/d.ts:1: imports '../api-path.js'");
    expect(stderr).toContain("jobs/e.ts:1: imports '../src/emulator/faults.js' (src/emulator/faults.js)");
    expect(stderr).toContain('5 import(s) cross a folder boundary');
  });

  it('lets the local service use itself, the shared schemas, log, errors and packages, and the CLI and demo start it', async () => {
    const root = await tree({
      'src/emulator/routes/a.ts': [
        "import { readFile } from 'node:fs/promises';",
        "import { parseDocument } from 'yaml';",
        "import { ROLES } from '../../api/schemas/service-enums.js';",
        "import type { Logger } from '../../log/create-logger.js';",
        "import { EnvironmentError } from '../../errors/environment-error.js';",
        "import { roleAtLeast } from '../roles.js';",
        "// import { readFolder } from '../../content/folder-to-tree.js';",
        '',
      ].join('\n'),
      'src/cli/emulator-command.ts': "import { parseFaultSpec } from '../emulator/faults.js';\n",
      'src/demo/start-demo.ts': "import { createEmulator } from '../emulator/create-emulator.js';\n",
      'src/api/teams-api.ts': "import { TEAM_MEMBER_ROLES } from './schemas/service-enums.js';\n",
    });
    expect(check(root)).toEqual({ status: 0, stderr: '' });
  });

  it('refuses an import of config into the queue layer, naming file, line, rule and fix', async () => {
    const root = await tree({
      'src/queue/job-runner.ts':
        "// Runs jobs.\nimport { Worker } from 'bullmq';\nimport type { Config } from '../config/config-schema.js';\n",
    });
    const { status, stderr } = check(root);
    expect(status).toBe(1);
    expect(stderr).toContain(
      "src/queue/job-runner.ts:3: imports '../config/config-schema.js' (src/config/config-schema.js)\n" +
        '  rule: the queue layer (src/queue/) knows no job and no domain: it imports only itself, src/errors/, src/log/, src/metrics/, src/redis/, src/lifecycle/ and packages\n' +
        '  fix: make it a port or an option the daemon fills',
    );
    expect(stderr).toContain('1 import(s) cross a folder boundary');
  });

  it("refuses a job importing another job's processor or helper, and the daemon or the CLI", async () => {
    const root = await tree({
      'jobs/poll-git/poll-git-job.ts': [
        "import { importContentJob } from '../import-content/import-content-job.js';",
        "import { changedFiles } from '../import-content/changed-files.js';",
        "import { createJobServices } from '../../src/daemon/create-job-services.js';",
        "import { runCommand } from '../../src/cli/run-command.js';",
        '',
      ].join('\n'),
    });
    const { status, stderr } = check(root);
    expect(status).toBe(1);
    expect(stderr).toContain(
      "jobs/poll-git/poll-git-job.ts:1: imports '../import-content/import-content-job.js' (jobs/import-content/import-content-job.js)\n" +
        "  rule: a job (jobs/poll-git/) imports src/, its own folder, the files at jobs/ root and another job's kind file (jobs/<b>/<b>-kind.ts), never another job's processor or helpers\n" +
        '  fix: to add work of another kind import its kind file',
    );
    expect(stderr).toContain("jobs/poll-git/poll-git-job.ts:2: imports '../import-content/changed-files.js'");
    expect(stderr).toContain(
      "jobs/poll-git/poll-git-job.ts:3: imports '../../src/daemon/create-job-services.js' (src/daemon/create-job-services.js)\n" +
        '  rule: a job (jobs/poll-git/) does not import the daemon, the CLI or the demo',
    );
    expect(stderr).toContain("jobs/poll-git/poll-git-job.ts:4: imports '../../src/cli/run-command.js'");
    expect(stderr).toContain('4 import(s) cross a folder boundary');
  });

  it('refuses src/ importing a processor, or the registry and the services outside the daemon', async () => {
    const root = await tree({
      'src/producers/git-poller.ts': [
        "import { pollGitJob } from '../../jobs/poll-git/poll-git-job.js';",
        "import { JOBS } from '../../jobs/registry.js';",
        "import type { JobServices } from '../../jobs/job-services.js';",
        '',
      ].join('\n'),
      'src/daemon/start-daemon.ts': "import { pollGitJob } from '../../jobs/poll-git/poll-git-job.js';\n",
    });
    const { status, stderr } = check(root);
    expect(status).toBe(1);
    expect(stderr).toContain(
      "src/producers/git-poller.ts:1: imports '../../jobs/poll-git/poll-git-job.js' (jobs/poll-git/poll-git-job.js)\n" +
        '  rule: src/ imports from jobs/ only kind files (jobs/*/*-kind.ts) and the shared payloads and kinds at jobs/ root; only src/daemon/ imports jobs/registry.ts and jobs/job-services.ts\n' +
        '  fix: import the kind to add work',
    );
    expect(stderr).toContain("src/producers/git-poller.ts:2: imports '../../jobs/registry.js'");
    expect(stderr).toContain("src/producers/git-poller.ts:3: imports '../../jobs/job-services.js'");
    expect(stderr).toContain(
      "src/daemon/start-daemon.ts:1: imports '../../jobs/poll-git/poll-git-job.js' (jobs/poll-git/poll-git-job.js)\n" +
        "  rule: the daemon imports from jobs/ only the registry (jobs/registry.ts), the services (jobs/job-services.ts), kind files and shared payloads, never a job's processor",
    );
    expect(stderr).toContain('4 import(s) cross a folder boundary');
  });

  it("lets a job use src/, its own folder, jobs/ root and other jobs' kinds, and src/ the kinds, the daemon the registry", async () => {
    const root = await tree({
      'jobs/poll-git/poll-git-job.ts': [
        "import { Queue } from 'bullmq';",
        "import { defineJob } from '../define-job.js';",
        "import type { JobServices } from '../job-services.js';",
        "import { changeRequestJobPayload } from '../change-request-job-payload.js';",
        "import { pollGitKind } from './poll-git-kind.js';",
        "import { diffTrees } from './diff/diff-trees.js';",
        "import { importContentKind } from '../import-content/import-content-kind.js';",
        "import { mirrorOf } from '../../src/git/mirror-of.js';",
        "import { jobDefinition } from '../../src/queue/job-definition.js';",
        '',
      ].join('\n'),
      'jobs/registry.ts': "import { pollGitJob } from './poll-git/poll-git-job.js';\n",
      'src/producers/git-poller.ts': [
        "import { pollGitKind } from '../../jobs/poll-git/poll-git-kind.js';",
        "import { mappingPollPayload } from '../../jobs/mapping-poll-payload.js';",
        "import { changeRequestJobKind } from '../../jobs/change-request-job-kind.js';",
        '',
      ].join('\n'),
      'src/daemon/start-daemon.ts': [
        "import { JOBS } from '../../jobs/registry.js';",
        "import type { JobServices } from '../../jobs/job-services.js';",
        '',
      ].join('\n'),
      'src/queue/job-runner.ts': [
        "import { DocsyncError } from '../errors/docsync-error.js';",
        "import type { Logger } from '../log/create-logger.js';",
        "import type { DocsyncMetrics } from '../metrics/docsync-metrics.js';",
        "import { redisConnection } from '../redis/redis-connections.js';",
        "import { closeAll } from '../lifecycle/close-all.js';",
        "import { jobId } from './job-id.js';",
        '',
      ].join('\n'),
    });
    expect(check(root)).toEqual({ status: 0, stderr: '' });
  });

  it('passes on this repository', () => {
    expect(check(REPO)).toEqual({ status: 0, stderr: '' });
  });
});
