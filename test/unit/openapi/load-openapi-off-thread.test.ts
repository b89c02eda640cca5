import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '../../../src/openapi/load-openapi-document.js';
import {
  analyseOpenApiOffThread,
  closeOpenApiWorkers,
  loadOpenApiOffThread,
  openApiWorkerThreads,
} from '../../../src/openapi/load-openapi-off-thread.js';
import { OpenApiInvalidError } from '../../../src/openapi/openapi-invalid-error.js';
import { OpenApiSourceError } from '../../../src/openapi/openapi-source-error.js';
import type { OpenApiSourceReader } from '../../../src/openapi/openapi-source-types.js';
import { OpenApiWorkerPool } from '../../../src/openapi/openapi-worker-pool.js';
import { operationFingerprints } from '../../../src/openapi/operation-fingerprints.js';

const BASE = 'https://specs.example/api/';

/** A source whose `$ref`d files are in memory: read here, on the test's thread, by URL. */
function reader(files: Record<string, string | Error> = {}, onRead?: () => void) {
  const reads: string[] = [];
  const source: OpenApiSourceReader = {
    location: `${BASE}openapi.yaml`,
    label: 'specs.example/api/openapi.yaml',
    read: async () => ({ kind: 'not-modified' }),
    readRef: async (location) => {
      reads.push(location);
      onRead?.();
      const file = files[location];
      if (file instanceof Error) throw file;
      if (file === undefined) throw new OpenApiSourceError('SOURCE_NOT_FOUND', `no file at ${location}`);
      return Buffer.from(file);
    },
  };
  return { source, reads };
}

const limits = { maxBytes: 1024 * 1024, maxRefFiles: 200 };
const never = new AbortController().signal;
const PETS = `openapi: 3.1.0
info: { title: "Pets  API", version: "1" }
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: 'pet.yaml' }
`;
const PET = 'type: object\nproperties:\n  name: { type: string }\n';

afterAll(() => closeOpenApiWorkers());

describe('loadOpenApiOffThread', () => {
  it('loads in another thread what loadOpenApiDocument loads, its $ref files read on this thread', async () => {
    const off = reader({ [`${BASE}pet.yaml`]: PET });
    const loaded = await loadOpenApiOffThread(Buffer.from(PETS), off.source, limits, never);
    const here = await loadOpenApiDocument(
      Buffer.from(PETS),
      reader({ [`${BASE}pet.yaml`]: PET }).source,
      limits,
      never,
    );
    expect(loaded.threadId).not.toBe(threadId);
    expect(off.reads).toEqual([`${BASE}pet.yaml`]);
    expect(loaded).toMatchObject({ document: here.document, text: here.text, refFiles: 1, version: '3.1' });
  });

  it('fingerprints in the worker as on the main thread, reachedBy included', async () => {
    const files = { [`${BASE}pet.yaml`]: PET };
    const off = await analyseOpenApiOffThread(Buffer.from(PETS), reader(files).source, limits, never, {
      fingerprints: true,
      digest: true,
    });
    const here = await operationFingerprints(
      (await loadOpenApiDocument(Buffer.from(PETS), reader(files).source, limits, never)).document,
    );
    expect(off.fingerprints?.operations).toEqual(here.operations);
    expect(off.fingerprints?.components).toEqual(here.components);
    expect(off.fingerprints?.reachedBy('GET /pets')).toEqual(here.reachedBy('GET /pets'));
    expect(off.fingerprints?.reachedBy('GET /pets', new Set())).toEqual([]);
    expect(off).toMatchObject({ title: 'Pets API', digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(off.document).toBeUndefined();
  });

  it('rebuilds an invalid document as OpenApiInvalidError with its problems and message', async () => {
    const text = 'openapi: 3.0.3\ninfo: { title: t }\npaths: {}\n';
    const here = await loadOpenApiDocument(Buffer.from(text), reader().source, limits, never).catch((e) => e);
    const off = await loadOpenApiOffThread(Buffer.from(text), reader().source, limits, never).catch((e) => e);
    expect(off).toBeInstanceOf(OpenApiInvalidError);
    expect(off).toMatchObject({ code: 'OPENAPI_INVALID', name: 'OpenApiInvalidError', retryable: false });
    expect(off.message).toBe(here.message);
    expect(off.problems).toEqual(here.problems);
    expect(off.total).toBe(here.total);
  });

  it('gives back the error of a $ref read on this thread with its class and code', async () => {
    const unreachable = new OpenApiSourceError('SOURCE_UNREACHABLE', 'specs.example did not answer');
    const error = await loadOpenApiOffThread(
      Buffer.from(PETS),
      reader({ [`${BASE}pet.yaml`]: unreachable }).source,
      limits,
      never,
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenApiSourceError);
    expect(error).toMatchObject({ code: 'SOURCE_UNREACHABLE', retryable: true });
    expect((error as Error).message).toContain('specs.example did not answer');
  });

  it('keeps the limits: more $ref files than maxRefFiles is refused', async () => {
    const files = { [`${BASE}pet.yaml`]: PET };
    const error = await loadOpenApiOffThread(
      Buffer.from(PETS),
      reader(files).source,
      { ...limits, maxRefFiles: 0 },
      never,
    ).catch((caught: unknown) => caught);
    const here = await loadOpenApiDocument(
      Buffer.from(PETS),
      reader(files).source,
      { ...limits, maxRefFiles: 0 },
      never,
    ).catch((caught: unknown) => caught);
    expect((error as Error).constructor).toBe((here as Error).constructor);
    expect(error).toMatchObject({ code: (here as { code: string }).code, message: (here as Error).message });
  });
});

describe('OpenApiWorkerPool', () => {
  it('stops the work on abort, ends its thread, and serves the next task with a new one', async () => {
    const pool = new OpenApiWorkerPool(1);
    try {
      const controller = new AbortController();
      // The worker asks for the $ref'd file: the task is under way in the thread when it aborts.
      const { source } = reader({ [`${BASE}pet.yaml`]: PET }, () => controller.abort(new Error('stop')));
      const task = {
        bytes: Buffer.from(PETS),
        reader: source,
        limits,
        wanted: {},
        signal: controller.signal,
      };
      await expect(pool.run(task)).rejects.toThrow('stop');
      expect(pool.threads).toBe(0);
      const next = await pool.run({
        ...task,
        reader: reader({ [`${BASE}pet.yaml`]: PET }).source,
        signal: never,
      });
      expect(next.refFiles).toBe(1);
      expect(pool.threads).toBe(1);
    } finally {
      await pool.close();
    }
    expect(pool.threads).toBe(0);
  });

  it('queues tasks past its size on the threads it has, and drops a queued task on abort', async () => {
    const pool = new OpenApiWorkerPool(1);
    try {
      const files = { [`${BASE}pet.yaml`]: PET };
      const task = () => ({
        bytes: Buffer.from(PETS),
        reader: reader(files).source,
        limits,
        wanted: {},
        signal: never,
      });
      const queued = new AbortController();
      // Aborted while the first task holds the only thread (it is reading its $ref file).
      const abortQueued = reader(files, () => queued.abort(new Error('no longer wanted'))).source;
      const [first, dropped, second] = await Promise.allSettled([
        pool.run({ ...task(), reader: abortQueued }),
        pool.run({ ...task(), signal: queued.signal }),
        pool.run(task()),
      ]);
      expect(first).toMatchObject({ status: 'fulfilled', value: { refFiles: 1 } });
      expect(dropped).toMatchObject({ status: 'rejected', reason: new Error('no longer wanted') });
      expect(second).toMatchObject({ status: 'fulfilled', value: { refFiles: 1 } });
      expect(pool.threads).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('refuses an aborted signal before starting a thread', async () => {
    const pool = new OpenApiWorkerPool(1);
    const signal = AbortSignal.abort(new Error('already'));
    await expect(
      pool.run({ bytes: Buffer.from(PETS), reader: reader().source, limits, wanted: {}, signal }),
    ).rejects.toThrow('already');
    expect(pool.threads).toBe(0);
    await pool.close();
  });

  it('closes its threads once the shared pool is closed', async () => {
    await loadOpenApiOffThread(
      Buffer.from(PET.replace('type', 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\nx-type')),
      reader().source,
      limits,
      never,
    ).catch(() => undefined);
    expect(openApiWorkerThreads()).toBeGreaterThan(0);
    await closeOpenApiWorkers();
    expect(openApiWorkerThreads()).toBe(0);
  });
});
