// The shared budget of the service (service.rateLimit) where operators look: /status, the status
// page and /metrics show what every process on the Redis took in the last window, out of the limit,
// and the calls that waited.
import { describe, expect, it } from 'vitest';
import { ServiceBudgetScript } from '../../../src/api/service-budget-script.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';

describe('the service budget on the status', () => {
  it('shows the tokens taken by every process out of the limit, and the waits', async () => {
    const service = await startTestEmulator();
    const prefix = uniquePrefix('status-budget');
    const daemon = await startTestDaemon({
      prefix,
      dataDir: await tempDir('status-budget'),
      yaml: `service:\n  baseUrl: "${service.baseUrl}"\n  token: ${service.tokens.admin}\n  rateLimit: { requests: 5, per: 1m }\n`,
    });
    // Another process's takes: the budget is the Redis's, not this daemon's.
    const other = new ServiceBudgetScript(testRedis(prefix), prefix, { requests: 5, perMs: 60_000 });
    for (let n = 0; n < 5; n += 1) await other.take(0, true);
    expect((await other.take(0, true)).taken).toBe(false);

    const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as Record<string, unknown>;
    expect(status.serviceBudget).toEqual({ requests: 5, perMs: 60_000, taken: 5, waits: 1 });
    const page = (await (await fetch(`${daemon.httpAddress}/`)).text()).replace(/<[^>]+>/g, ' ');
    expect(page.replace(/\s+/g, ' ')).toContain(
      'Service budget: 5 of 5 requests in the last 1m, shared by every docsync on this Redis; 1 call waited for the budget.',
    );
    const metrics = await (await fetch(`${daemon.httpAddress}/metrics`)).text();
    expect(metrics).toContain('docsync_service_budget_requests{kind="used"} 5');
    expect(metrics).toContain('docsync_service_budget_requests{kind="limit"} 5');
  });

  it('is not part of the status when no rate limit is set', async () => {
    const daemon = await startTestDaemon({ prefix: uniquePrefix('status-no-budget') });
    const status = (await (await fetch(`${daemon.httpAddress}/status`)).json()) as Record<string, unknown>;
    expect(status).not.toHaveProperty('serviceBudget');
  });
});
