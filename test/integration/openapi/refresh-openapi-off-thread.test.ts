import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openapiSchema } from '../../../src/config/openapi-schema.js';
import {
  closeOpenApiWorkers,
  loadOpenApiOffThread,
  openApiWorkerThreads,
} from '../../../src/openapi/load-openapi-off-thread.js';
import { openApiSourceReader } from '../../../src/openapi/openapi-source-reader.js';
import { parseOpenApiText } from '../../../src/openapi/parse-openapi-text.js';
import { refreshOpenApiSpec } from '../../../src/openapi/refresh-openapi-spec.js';
import { MemoryOpenApiStateStore } from '../../../src/state/memory-openapi-state-store.js';
import { largeOpenApiYaml } from '../../support/large-openapi-yaml.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { tempDir, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const MIB = 1024 * 1024;
/** Generous: the same spec parsed on the main thread holds the event loop for seconds. */
const MAX_DELAY_MS = 500;

afterAll(() => closeOpenApiWorkers());

/** A dry-run refresh of `text` from a local file: parsed, validated and fingerprinted, not uploaded. */
async function refreshOf(text: string, signal: AbortSignal) {
  const dir = await tempDir('openapi-off-thread');
  const file = join(dir, 'openapi.yaml');
  await writeFile(file, text);
  const spec = openapiSchema.parse({ org: 'org', slug: 'large', source: { file }, every: '1h' });
  const reader = openApiSourceReader(spec, { mappings: [], mirrorFor: noMirror, cwd: dir });
  return refreshOpenApiSpec({
    spec,
    reader,
    api: undefined,
    store: new MemoryOpenApiStateStore(),
    log: pino({ level: 'silent' }),
    now: () => new Date(),
    signal,
    dryRun: true,
    trigger: 'test',
  });
}

function noMirror(): never {
  throw new Error('a local file has no mirror');
}

describe('OpenAPI refresh off the event loop', () => {
  it('refreshes a 4 MB YAML spec while the event loop keeps turning', async () => {
    const text = largeOpenApiYaml(4 * MIB);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const outcome = await refreshOf(text, new AbortController().signal);
    delay.disable();
    expect(outcome).toMatchObject({ result: 'would-upload', operations: expect.any(Number) });
    expect((outcome as { operations: number }).operations).toBeGreaterThan(1000);
    expect(delay.max / 1e6).toBeLessThan(MAX_DELAY_MS);
    // What the bound is against: parsing alone, on this thread, holds it longer.
    const started = performance.now();
    expect(parseOpenApiText(text).ok).toBe(true);
    expect(performance.now() - started).toBeGreaterThan(MAX_DELAY_MS);
  });

  it('stops a refresh on abort: its worker thread is ended, and the next refresh gets a new one', async () => {
    const text = largeOpenApiYaml(4 * MIB);
    // No thread left idle by the test before: the one that appears is this refresh's.
    await closeOpenApiWorkers();
    const controller = new AbortController();
    const refresh = refreshOf(text, controller.signal);
    await waitFor(() => openApiWorkerThreads() > 0, 'the refresh to start its worker thread');
    controller.abort(new Error('stopped by the test'));
    await expect(refresh).rejects.toThrow('stopped by the test');
    expect(openApiWorkerThreads()).toBe(0);
    const small = largeOpenApiYaml(20_000);
    expect(await refreshOf(small, new AbortController().signal)).toMatchObject({ result: 'would-upload' });
  });
});

describe("the daemon's shutdown", () => {
  it('ends the OpenAPI worker threads', async () => {
    const daemon = await startTestDaemon({ prefix: uniquePrefix('openapi-threads') });
    const loaded = await loadOpenApiOffThread(
      Buffer.from(largeOpenApiYaml(20_000)),
      { location: 'file:///spec/openapi.yaml', label: 'openapi.yaml', read: noMirror, readRef: noMirror },
      { maxBytes: MIB, maxRefFiles: 0 },
      new AbortController().signal,
    );
    expect(loaded.version).toBe('3.1');
    expect(openApiWorkerThreads()).toBe(1);
    await daemon.shutdown.run('test');
    expect(openApiWorkerThreads()).toBe(0);
  });
});
