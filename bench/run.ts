// `npm run bench -- [name ...]`: runs the named benchmarks (all when none is named) and prints
// their figures. Benchmarks measure; they never pass or fail on a time.
import { bundleBench } from './bundle-bench.js';
import { configBench } from './config-bench.js';
import { crashBench } from './crash-bench.js';
import { demoBench } from './demo-bench.js';
import { exportBench } from './export-bench.js';
import { figureTable } from './figure-table.js';
import { importLatencyBench } from './import-latency-bench.js';
import { openApiChangelogBench } from './openapi-changelog-bench.js';
import { openApiHealthBench } from './openapi-health-bench.js';
import { pollBench } from './poll-bench.js';
import { processesBench } from './processes-bench.js';
import { realShapeBench } from './real-shape-bench.js';
import { runnerBench } from './runner-bench.js';
import { scaleBench } from './scale-bench.js';
import { serviceLinksBench } from './service-links-bench.js';
import { startupBench } from './startup-bench.js';
import { versionsBench } from './versions-bench.js';

const BENCHES: Record<string, () => Promise<void>> = {
  startup: startupBench,
  config: configBench,
  runner: runnerBench,
  bundle: bundleBench,
  poll: pollBench,
  // The figures of the git-to-space issue: save-to-import latency, then bundling beside git archive.
  import: async () => {
    await importLatencyBench();
    await bundleBench();
  },
  // Space to git on a 10,000-page space: first export, unchanged, one page edited.
  export: exportBench,
  // A repository shaped like a real one through the daemon: import, no-edit and one-edit round trips.
  'real-shape': realShapeBench,
  // The embedded demo: how soon it shows a full cycle, an edit's merge, /status and / latency.
  demo: demoBench,
  // The changelog of a Stripe-sized spec and of GitHub's description: time and event-loop blocks.
  'openapi-changelog': openApiChangelogBench,
  // /healthz answers every 50 ms while a 10 MB YAML spec is refreshed in the OpenAPI worker thread.
  openapi: openApiHealthBench,
  crash: crashBench,
  // Import and export at 1k, 10k, 50k and 100k files: time, peak memory, growth.
  scale: scaleBench,
  // 1, 2 and 3 docsync processes on one Redis: jobs/s and change request poll cycle time.
  processes: processesBench,
  // A branches mapping of 50 release branches: reconcile from scratch and with nothing to do.
  versions: versionsBench,
  // The local service's import and link check of 3,000 and 10,000 pages beside git archive.
  service: serviceLinksBench,
};

const names = process.argv.slice(2);
const unknown = names.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  process.stderr.write(
    `unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}\n`,
  );
  process.exitCode = 2;
} else {
  for (const name of names.length > 0 ? names : Object.keys(BENCHES)) {
    process.stdout.write(`\n== ${name}\n`);
    await BENCHES[name]?.();
  }
  // The headline figures of what ran, in one table (bench/figure-table.ts).
  process.stdout.write(`\n== figures\n${figureTable() || 'no benchmark registered a figure\n'}`);
}
