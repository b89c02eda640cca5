// The reconcile of a branches mapping with 50 release branches against the local service: from
// scratch (every space, field and site space made), then with nothing to do (which must read only).
// Baseline: a check that reads each branch's space once (GET /spaces/{s}, 50 reads), the least a
// reconcile that looked at each space alone would cost, timed on the same client.
import { pino } from 'pino';
import { createDocsApiClient } from '../src/api/create-docs-api-client.js';
import { branchMappingSchema } from '../src/config/branch-mapping-schema.js';
import { MemoryVersionStateStore } from '../src/versions/memory-version-state-store.js';
import { reconcileVersions } from '../src/versions/reconcile-versions.js';
import { VersionCalls } from '../src/versions/version-calls.js';
import { BENCH_ADMIN_TOKEN, startBenchService } from './bench-service.js';
import { figure } from './figure-table.js';
import { report } from './stats.js';

const BRANCHES = 50;

export async function versionsBench(): Promise<void> {
  const service = await startBenchService();
  const methods: string[] = [];
  const api = createDocsApiClient(
    { baseUrl: service.baseUrl, token: BENCH_ADMIN_TOKEN, timeout: 30_000 },
    { onAttempt: (event) => methods.push(event.method) },
  );
  try {
    const org = service.emulator.orgId;
    await api.sites.create(org, { title: 'Developer docs' });
    const mapping = branchMappingSchema.parse({
      name: 'handbook',
      git: { repo: './unused', branches: ['release/*'] },
      spaces: {
        org,
        title: 'Handbook {version}',
        collection: 'Handbook',
        customFields: { version: '{version}' },
      },
      site: { site: 'Developer docs', section: 'Handbook', default: 'release/1.0' },
    });
    const branches = Array.from({ length: BRANCHES }, (_, i) => `release/${i + 1}.0`);
    const store = new MemoryVersionStateStore();
    const run = async () => {
      methods.length = 0;
      const started = performance.now();
      const outcome = await reconcileVersions({
        api,
        mapping,
        branches,
        store,
        calls: new VersionCalls(false),
        log: pino({ level: 'silent' }),
        dryRun: false,
      });
      const ms = performance.now() - started;
      const reads = methods.filter((method) => method === 'GET').length;
      return { ms, reads, writes: methods.length - reads, planned: outcome.calls.length };
    };
    const scratch = await run();
    const idle = await run();

    const spaces = Object.values((await store.get('handbook')).branches).map((entry) => entry.space);
    const started = performance.now();
    for (const space of spaces) await api.spaces.get(space);
    const baselineMs = performance.now() - started;

    report(`reconcile ${BRANCHES} branches from scratch`, {
      ms: scratch.ms.toFixed(0),
      reads: scratch.reads,
      writes: scratch.writes,
    });
    report(`reconcile ${BRANCHES} branches, nothing to do`, {
      ms: idle.ms.toFixed(1),
      reads: idle.reads,
      writes: idle.writes,
      'baseline: one GET per space (ms)': baselineMs.toFixed(1),
      'baseline reads': spaces.length,
    });
    figure({
      name: `versions: calls, ${BRANCHES} branches from scratch`,
      docsync: `${scratch.reads} reads + ${scratch.writes} writes`,
    });
    figure({
      name: `versions: time, ${BRANCHES} branches from scratch (ms)`,
      docsync: Math.round(scratch.ms),
    });
    figure({
      name: `versions: writes, ${BRANCHES} branches, nothing to do`,
      docsync: idle.writes,
      target: '0',
      met: idle.writes === 0,
    });
    figure({
      name: `versions: reads, ${BRANCHES} branches, nothing to do (baseline: a GET per space)`,
      docsync: idle.reads,
      baseline: spaces.length,
      ratio: idle.reads / spaces.length,
    });
    figure({
      name: `versions: time, ${BRANCHES} branches, nothing to do (ms; baseline: a GET per space)`,
      docsync: Number(idle.ms.toFixed(1)),
      baseline: Number(baselineMs.toFixed(1)),
      ratio: idle.ms / baselineMs,
    });
  } finally {
    await api.close();
    await service.close();
  }
}
