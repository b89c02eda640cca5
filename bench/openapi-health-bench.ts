// /healthz during the refresh of a 10 MB YAML spec (issue 38): a fastify server in this process
// answers /healthz, as the daemon's does, while a client in a worker thread of its own (so that its
// clock does not stall with the server's) asks every 50 ms. The refresh is the real one (dry run,
// a file source): parsed, validated and fingerprinted in the OpenAPI worker thread. Baselines in
// the same run: the document's parse time on the main thread, and /healthz during the old path
// (load and fingerprints on the main thread, between event-loop slices).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import pino from 'pino';
import { openapiSchema } from '../src/config/openapi-schema.js';
import { loadOpenApiDocument } from '../src/openapi/load-openapi-document.js';
import { closeOpenApiWorkers } from '../src/openapi/load-openapi-off-thread.js';
import { openApiContract } from '../src/openapi/openapi-contract.js';
import { openApiSourceReader } from '../src/openapi/openapi-source-reader.js';
import { operationFingerprints } from '../src/openapi/operation-fingerprints.js';
import { parseOpenApiText } from '../src/openapi/parse-openapi-text.js';
import { refreshOpenApiSpec } from '../src/openapi/refresh-openapi-spec.js';
import { MemoryOpenApiStateStore } from '../src/state/memory-openapi-state-store.js';
import { largeOpenApiYaml } from '../test/support/large-openapi-yaml.js';
import { figure } from './figure-table.js';
import { latencyFigures } from './latency-figures.js';
import { report } from './stats.js';

const MIB = 1024 * 1024;
const PROBE_MS = 50;
const TARGET_P99_MS = 100;

/** The client: asks /healthz every 50 ms from its own thread, and sends each answer's latency. */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
let stopped = false;
parentPort.on('message', () => { stopped = true; });
async function loop() {
  while (!stopped) {
    const started = performance.now();
    try { await (await fetch(workerData.url)).text(); } catch {}
    const ms = performance.now() - started;
    parentPort.postMessage(ms);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, ${PROBE_MS} - ms)));
  }
  parentPort.postMessage('done');
}
loop();
`;

export async function openApiHealthBench(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'docsync-openapi-health-'));
  const server = Fastify();
  server.get('/healthz', async () => ({ ok: true }));
  try {
    const text = largeOpenApiYaml(10 * MIB);
    const file = join(dir, 'openapi.yaml');
    await writeFile(file, text);
    const url = `${await server.listen({ port: 0, host: '127.0.0.1' })}/healthz`;
    const spec = openapiSchema.parse({
      org: 'bench',
      slug: 'large',
      source: { file },
      every: '1h',
      maxBytes: 20 * MIB,
    });
    const reader = () => openApiSourceReader(spec, { mappings: [], mirrorFor: noMirror, cwd: dir });
    const signal = new AbortController().signal;

    // The worker's refresh first: the old path's and the parse's garbage would be collected during it.
    const refresh = await probed(url, async () => {
      const outcome = await refreshOpenApiSpec({
        spec,
        reader: reader(),
        api: undefined,
        store: new MemoryOpenApiStateStore(),
        log: pino({ level: 'silent' }),
        now: () => new Date(),
        signal,
        dryRun: true,
        trigger: 'bench',
      });
      if (outcome.result !== 'would-upload') throw new Error(`the refresh ended ${outcome.result}`);
    });
    report('  /healthz (ms), refresh in the worker thread', refresh.latency);
    const old = await probed(url, async () => {
      const loaded = await loadOpenApiDocument(Buffer.from(text), reader(), limitsOf(spec), signal);
      await operationFingerprints(loaded.document, { signal });
      await openApiContract(loaded.document, { signal });
    });
    report('  /healthz (ms), old path: load + fingerprints on the main thread', old.latency);

    const parseStarted = performance.now();
    parseOpenApiText(text);
    const parseMs = performance.now() - parseStarted;
    report(`generated YAML spec, ${(text.length / MIB).toFixed(1)} MiB`, { parseOnMainThreadMs: parseMs });

    report('  refresh (ms)', { worker: refresh.ms, oldPath: old.ms });
    const p99 = Number(refresh.latency.p99);
    figure({
      name: `/healthz p99 during a refresh of a ${(text.length / MIB).toFixed(0)} MiB YAML spec (ms)`,
      docsync: `p99 ${p99.toFixed(0)}, worst ${Number(refresh.latency.max).toFixed(0)}`,
      baseline: `parse on main ${parseMs.toFixed(0)}; old path p99 ${Number(old.latency.p99).toFixed(0)}`,
      target: `p99 < ${TARGET_P99_MS} ms`,
      met: p99 < TARGET_P99_MS,
    });
  } finally {
    await closeOpenApiWorkers();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `work` while the probe asks /healthz: the latencies of the answers during the work. */
async function probed(url: string, work: () => Promise<void>) {
  const probe = new Worker(PROBE, { eval: true, workerData: { url } });
  const samples: number[] = [];
  const done = new Promise<void>((resolve, reject) => {
    probe.on('message', (message: number | 'done') => {
      if (message === 'done') resolve();
      else samples.push(message);
    });
    probe.on('error', reject);
  });
  const started = performance.now();
  try {
    await work();
  } finally {
    probe.postMessage('stop');
    await done;
    await probe.terminate();
  }
  return { ms: performance.now() - started, latency: latencyFigures(samples) };
}

function noMirror(): never {
  throw new Error('the bench reads a local file, not a repository');
}

function limitsOf(spec: { maxBytes: number; maxRefFiles: number }) {
  return { maxBytes: spec.maxBytes, maxRefFiles: spec.maxRefFiles };
}
