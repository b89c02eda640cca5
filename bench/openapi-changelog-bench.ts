// The changelog of a new spec version: time, and the longest stretch it holds the event loop (a
// 1 ms setInterval probe, and monitorEventLoopDelay's percentiles), for a generated spec of the size
// of Stripe's (4 MB, 500 operations, 1,000 schemas that all reach each other) and for GitHub's
// description (@octokit/openapi, ghec.json). Baseline in the same run: JSON.parse of the same text
// and one full walk of the document. Loading (parse, validation) is measured beside, for context.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadOpenApiDocument } from '../src/openapi/load-openapi-document.js';
import type { OpenApiSourceReader } from '../src/openapi/openapi-source-types.js';
import { diffOperations, summariseOperationChanges } from '../src/openapi/operation-changes.js';
import { operationFingerprints } from '../src/openapi/operation-fingerprints.js';
import { figure } from './figure-table.js';
import { report, summarize } from './stats.js';
import { xorshift } from './xorshift.js';

const RUNS = 5;
const PROBE_MS = 1;

export async function openApiChangelogBench(): Promise<void> {
  const generated = [stripeSized(false), stripeSized(true)].map((document) => JSON.stringify(document));
  await benchDocument('generated, Stripe-sized', generated[0] as string, generated[1] as string);

  let github: string;
  try {
    github = await readFile(
      createRequire(import.meta.url).resolve('@octokit/openapi/generated/ghec.json'),
      'utf8',
    );
  } catch {
    report("GitHub's description", { skipped: 'install the devDependencies (@octokit/openapi)' });
    return;
  }
  await benchDocument(
    "GitHub's description (ghec.json)",
    github,
    JSON.stringify(editGitHub(JSON.parse(github))),
  );
}

/** Measures one document: `before` is the last upload, `after` the new version whose changelog is made. */
async function benchDocument(name: string, before: string, after: string): Promise<void> {
  const signal = new AbortController().signal;
  const limits = { maxBytes: 100 * 1024 * 1024, maxRefFiles: 200 };
  const load = (text: string) => loadOpenApiDocument(Buffer.from(text), memoryReader(name), limits, signal);
  const previous = await operationFingerprints((await load(before)).document);
  const recorded = { operations: previous.operations, components: previous.components };
  const document = (await load(after)).document;

  const baseline: Measured[] = [];
  const changelog: Measured[] = [];
  const loading: Measured[] = [];
  let lines: string[] = [];
  let counts: Record<string, number> = {};
  for (let run = 0; run < RUNS; run += 1) {
    baseline.push(await measure(() => walk(JSON.parse(after))));
    changelog.push(
      await measure(async () => {
        const fingerprints = await operationFingerprints(document, { signal });
        const changes = diffOperations(recorded, fingerprints);
        lines = summariseOperationChanges(changes);
        counts = {
          operations: Object.keys(fingerprints.operations).length,
          components: Object.keys(fingerprints.components).length,
          changed: changes.changed.length,
          changedVia: changes.changedVia.length,
        };
      }),
    );
    loading.push(await measure(() => load(after)));
  }

  const baseMs = summarize(baseline.map((m) => m.ms)).median;
  const logMs = summarize(changelog.map((m) => m.ms)).median;
  report(`${name}`, { MiB: after.length / 1024 / 1024, ...counts });
  report('  baseline: JSON.parse + walk (ms)', summarize(baseline.map((m) => m.ms)));
  report('  changelog (ms)', summarize(changelog.map((m) => m.ms)));
  report('  changelog / baseline', { ratio: logMs / baseMs });
  report('  longest block, baseline (ms)', summarize(baseline.map((m) => m.maxBlockMs)));
  report('  longest block, changelog (ms)', summarize(changelog.map((m) => m.maxBlockMs)));
  report('  loop delay during changelog (ms)', percentiles(changelog));
  report('  load: parse + validate (ms)', summarize(loading.map((m) => m.ms)));
  report('  longest block, load (ms)', summarize(loading.map((m) => m.maxBlockMs)));
  report('  target: changelog < 5 s', { met: logMs < 5000 ? 'yes' : 'no' });
  const longest = Math.max(...changelog.map((m) => m.maxBlockMs));
  report('  target: no block > 100 ms in changelog', {
    longestMs: longest,
    met: longest <= 100 ? 'yes' : 'no',
  });
  report('  first changelog lines', { lines: lines.slice(0, 3).join(' | ') });
  figure({
    name: `changelog of ${name}, p50 (ms)`,
    docsync: logMs,
    baseline: `JSON.parse + walk ${baseMs.toFixed(0)}`,
    ratio: logMs / baseMs,
    target: '< 5000 ms, no block > 100 ms',
    met: logMs < 5000 && longest <= 100,
  });
}

interface Measured {
  ms: number;
  /** The longest gap between two ticks of the probe. */
  maxBlockMs: number;
  p50: number;
  p95: number;
  p99: number;
}

async function measure(work: () => unknown): Promise<Measured> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let maxBlockMs = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxBlockMs = Math.max(maxBlockMs, now - last);
    last = now;
  }, PROBE_MS);
  await sleep(5);
  histogram.enable();
  last = performance.now();
  maxBlockMs = 0;
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  // Let the probe tick once more, so that a block at the very end is counted.
  await sleep(5);
  histogram.disable();
  clearInterval(probe);
  const at = (q: number) => histogram.percentile(q) / 1e6;
  return { ms, maxBlockMs, p50: at(50), p95: at(95), p99: at(99) };
}

function percentiles(samples: readonly Measured[]): Record<string, number> {
  const worst = samples.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  return { p50: worst.p50, p95: worst.p95, p99: worst.p99 };
}

/** Visits every value once: the least any changelog must do. */
function walk(root: unknown): number {
  let nodes = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    nodes += 1;
    if (typeof node === 'object' && node !== null)
      for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push(child);
  }
  return nodes;
}

function memoryReader(label: string): OpenApiSourceReader {
  return {
    location: 'https://bench.example/openapi.json',
    label,
    read: async () => ({ kind: 'not-modified' }),
    readRef: async (location) => {
      throw new Error(`the bench documents name no other file (${location})`);
    },
  };
}

/** The change of the integration test: one widely shared schema, and one operation's own summary. */
function editGitHub(spec: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, { properties: Record<string, unknown> }> };
}) {
  const user = spec.components.schemas['simple-user'];
  if (user !== undefined) user.properties.pronouns = { type: 'string' };
  const meta = spec.paths['/meta']?.get;
  if (meta !== undefined) meta.summary = 'GitHub API meta information, renamed';
  return spec;
}

const SCHEMAS = 1000;
const PATHS = 250;
const WORDS =
  'the object customer charge invoice payment refund balance account card source method intent'.split(' ');

/**
 * A spec shaped like Stripe's: every schema has expandable fields (`anyOf: [string, $ref]`) to
 * others picked at random, so nearly all schemas reach each other; 500 operations over 250 paths.
 * The second version changes the own text of 40 operations and one schema every operation reaches.
 */
function stripeSized(changed: boolean): Record<string, unknown> {
  const random = xorshift(20_240_601);
  const text = (words: number) =>
    Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  const ref = (index: number) => ({ $ref: `#/components/schemas/s${index}` });
  const schemas: Record<string, unknown> = {
    error: { type: 'object', properties: { message: { type: 'string' }, code: { type: 'string' } } },
  };
  for (let index = 0; index < SCHEMAS; index += 1) {
    const properties: Record<string, unknown> = {};
    for (let field = 0; field < 10; field += 1)
      properties[`field_${field}`] = { type: 'string', maxLength: 5000, description: text(18) };
    for (let link = 0; link < 4; link += 1) {
      properties[`link_${link}`] = {
        anyOf: [{ type: 'string', maxLength: 5000 }, ref(Math.floor(random() * SCHEMAS))],
        description: text(12),
        'x-expansionResources': { oneOf: [ref(Math.floor(random() * SCHEMAS))] },
      };
    }
    properties.data = { type: 'array', items: ref(Math.floor(random() * SCHEMAS)) };
    schemas[`s${index}`] = {
      type: 'object',
      description: changed && index === 0 ? `${text(20)} (changed)` : text(20),
      properties,
      required: ['field_0', 'field_1'],
      'x-resourceId': `s${index}`,
    };
  }
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < PATHS; index += 1) {
    const own = (method: string) =>
      changed && index < 20 ? `${method} ${index}, reworded` : `${method} ${index}`;
    const response = {
      '200': { description: 'ok', content: { 'application/json': { schema: ref(index % SCHEMAS) } } },
      default: {
        description: 'error',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/error' } } },
      },
    };
    paths[`/v1/resources_${index}/{id}`] = {
      get: {
        summary: own('Retrieve'),
        description: text(30),
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 5000 } },
          {
            name: 'expand',
            in: 'query',
            schema: { type: 'array', items: { type: 'string', maxLength: 5000 } },
          },
        ],
        responses: response,
      },
      post: {
        summary: own('Update'),
        description: text(30),
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', maxLength: 5000 } }],
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                properties: Object.fromEntries(
                  Array.from({ length: 8 }, (_, field) => [
                    `param_${field}`,
                    { type: 'string', description: text(10) },
                  ]),
                ),
              },
            },
          },
        },
        responses: response,
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Stripe-sized', version: changed ? '2' : '1' },
    paths,
    components: { schemas },
  };
}
