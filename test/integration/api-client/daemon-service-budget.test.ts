// The daemon's own client takes the shared budget: with service.rateLimit set, every request its
// jobs send to the service (polls, the import) took a token from the bucket on its Redis.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { ServiceBudgetScript } from '../../../src/api/service-budget-script.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { requestCounts } from '../../support/test-api-client.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

describe('the daemon with service.rateLimit', () => {
  it('takes a token for each request its jobs send to the service', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'Docs');
    const repo = await createTestRepo();
    const first = await repo.commit({ 'docs/README.md': '# Welcome\n' }, 'Write the first docs');
    await repo.push();
    const prefix = uniquePrefix('daemon-budget');
    const redis = testRedis(prefix);
    const state = new RedisMappingStateStore(redis, prefix);
    const before = (await requestCounts(emulator)).total;
    const daemon = await startTestDaemon({
      prefix,
      jobs: JOBS,
      yaml: `dataDir: ${await tempDir('daemon-data')}
service:
  baseUrl: "${emulator.baseUrl}"
  token: ${emulator.tokens.admin}
  rateLimit: { requests: 1000, per: 1m }
mappings:
  - name: docs
    space: ${space}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
`,
    });
    await waitFor(
      async () => ((await state.get('docs')).lastImportedSha === first ? true : undefined),
      'the first commit imported',
    );
    await daemon.shutdown.run('test finished');
    const sent = (await requestCounts(emulator)).total - before;
    expect(sent).toBeGreaterThan(0);
    const budget = new ServiceBudgetScript(redis, prefix, { requests: 1000, perMs: 60_000 });
    expect((await budget.peek()).taken).toBe(sent);
  });
});
