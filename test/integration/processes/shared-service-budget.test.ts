// Issue 43: three `docsync start` processes on one Redis with service.rateLimit share one budget.
// Six mappings import their first commits and poll their change requests every second, far more
// than the budget gives; the local service logs when each request arrived and from which process:
// no window of `per` there sees more than `requests` from the three together, every mapping's
// import completes, and every process took part.
import { describe, expect, it } from 'vitest';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { startDocsyncProcesses } from '../../support/docsync-processes.js';
import { createTestRepo } from '../../support/git-repos.js';
import { busiestWindow, startLoggedService } from '../../support/service-request-log.js';
import { createTestSpace } from '../../support/start-test-emulator.js';
import { redisUrl, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const MAPPINGS = 6;
const LIMIT = { requests: 20, perMs: 5_000 };
/** Three processes starting at once on two shared cores, then the imports at 4 requests a second. */
const SETTLE_MS = 150_000;

describe('three docsync processes with service.rateLimit', () => {
  it('stay together within the limit in every window, and complete all the imports', {
    timeout: 240_000,
  }, async () => {
    const logged = await startLoggedService({ doors: 3 });
    const { service } = logged;
    const mappings: string[] = [];
    const heads: string[] = [];
    for (let n = 0; n < MAPPINGS; n += 1) {
      const space = await createTestSpace(service, `Docs ${n}`);
      const repo = await createTestRepo();
      heads.push(await repo.commit({ 'docs/README.md': `# Docs ${n}\n` }, `Write docs ${n}`));
      await repo.push();
      mappings.push(`  - name: docs-${n}
    space: ${space}
    git: { repo: ${repo.remote}, branch: main, dir: docs, poll: 1s }
    changeRequest: { poll: 1s }
`);
    }
    const prefix = uniquePrefix('processes-budget');
    const state = new RedisMappingStateStore(testRedis(prefix), prefix);
    await startDocsyncProcesses({
      config: `redis: { url: "\${TEST_REDIS_URL}", prefix: ${prefix} }
service:
  baseUrl: "\${TEST_SERVICE_URL}"
  token: ${service.tokens.admin}
  rateLimit: { requests: ${LIMIT.requests}, per: ${LIMIT.perMs / 1000}s }
http: { listen: 127.0.0.1:0 }
mappings:
${mappings.join('')}`,
      count: 3,
      env: (slot) => ({ TEST_REDIS_URL: redisUrl(), TEST_SERVICE_URL: logged.doorUrl(slot) }),
    });
    await waitFor(
      async () => {
        const imported = await Promise.all(
          heads.map(async (sha, n) => (await state.get(`docs-${n}`)).lastImportedSha === sha),
        );
        return imported.every(Boolean);
      },
      'the first import of every mapping',
      SETTLE_MS,
    );
    const ours = logged.requests.filter((request) => request.door !== undefined);
    expect(ours.length).toBeGreaterThan(3 * LIMIT.requests);
    expect(ours.every((request) => request.status !== 429)).toBe(true);
    expect(new Set(ours.map((request) => request.door))).toEqual(new Set([0, 1, 2]));
    expect(busiestWindow(logged, LIMIT.perMs)).toBeLessThanOrEqual(LIMIT.requests);
  });
});
