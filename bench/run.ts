// `npm run bench -- [name ...]`: runs the named benchmarks (all when none is named) and prints
// their figures. Benchmarks measure; they never pass or fail on a time.
import { figureTable } from './figure-table.js';

// Each benchmark's module is loaded when it runs: one that does not load (its imports moved in a
// refactor not yet finished) fails its own run, not every other benchmark's.

const BENCHES: Record<string, () => Promise<void>> = {
  startup: () => import('./startup-bench.js').then((module) => module.startupBench()),
  config: () => import('./config-bench.js').then((module) => module.configBench()),
  runner: () => import('./runner-bench.js').then((module) => module.runnerBench()),
  bundle: () => import('./bundle-bench.js').then((module) => module.bundleBench()),
  poll: () => import('./poll-bench.js').then((module) => module.pollBench()),
  // The figures of the git-to-space issue: save-to-import latency, then bundling beside git archive.
  import: async () => {
    await (await import('./import-latency-bench.js')).importLatencyBench();
    await (await import('./bundle-bench.js')).bundleBench();
  },
  // Space to git on a 10,000-page space: first export, unchanged, one page edited.
  export: () => import('./export-bench.js').then((module) => module.exportBench()),
  // A repository shaped like a real one through the daemon: import, no-edit and one-edit round trips.
  'real-shape': () => import('./real-shape-bench.js').then((module) => module.realShapeBench()),
  // The embedded demo: how soon it shows a full cycle, an edit's merge, /status and / latency.
  demo: () => import('./demo-bench.js').then((module) => module.demoBench()),
  // The changelog of a Stripe-sized spec and of GitHub's description: time and event-loop blocks.
  'openapi-changelog': () =>
    import('./openapi-changelog-bench.js').then((module) => module.openApiChangelogBench()),
  // /healthz answers every 50 ms while a 10 MB YAML spec is refreshed in the OpenAPI worker thread.
  openapi: () => import('./openapi-health-bench.js').then((module) => module.openApiHealthBench()),
  crash: () => import('./crash-bench.js').then((module) => module.crashBench()),
  // Import and export at 1k, 10k, 50k and 100k files: time, peak memory, growth.
  scale: () => import('./scale-bench.js').then((module) => module.scaleBench()),
  // 1, 2 and 3 docsync processes on one Redis: jobs/s and change request poll cycle time.
  processes: () => import('./processes-bench.js').then((module) => module.processesBench()),
  // A branches mapping of 50 release branches: reconcile from scratch and with nothing to do.
  versions: () => import('./versions-bench.js').then((module) => module.versionsBench()),
  // The local service's import and link check of 3,000 and 10,000 pages beside git archive.
  service: () => import('./service-links-bench.js').then((module) => module.serviceLinksBench()),
  // N mappings (300 by default) polled every minute by one process: first imports, then idle CPU
  // beside the floor, the polls' spread, Redis memory and service calls per mapping.
  fleet: () => import('./fleet-bench.js').then((module) => module.fleetBench()),
  // A burst of pushes on 1,000 mappings: one process, then three on one Redis (the speed-up), then
  // the three under one service.rateLimit of 120/min (the busiest minute at the service).
  'fleet-burst': () => import('./fleet-burst-bench.js').then((module) => module.fleetBurstBench()),
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
