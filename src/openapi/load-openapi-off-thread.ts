// The one way docsync loads an OpenAPI document: parsed, bundled, validated (and, for a refresh,
// fingerprinted) in a worker thread of a process-wide pool, so that a spec of 10 MB never stalls
// the event loop. The pool starts on first use; the daemon's shutdown ends it (closeOpenApiWorkers).

import type { AnalysisWanted, OpenApiAnalysis } from './analyse-openapi-document.js';
import type { BundleLimits } from './bundle-openapi-refs.js';
import type { LoadedOpenApi } from './load-openapi-document.js';
import type { OpenApiSourceReader } from './openapi-source-types.js';
import { OpenApiWorkerPool } from './openapi-worker-pool.js';
import type { OperationFingerprints } from './operation-fingerprints.js';
import { unpackFingerprints } from './transferable-fingerprints.js';

let shared: OpenApiWorkerPool | undefined;

export interface OffThreadAnalysis extends Omit<OpenApiAnalysis, 'fingerprints'> {
  fingerprints?: OperationFingerprints;
  /** The worker thread that did the work. */
  threadId: number;
}

export async function analyseOpenApiOffThread(
  bytes: Buffer,
  reader: OpenApiSourceReader,
  limits: BundleLimits,
  signal: AbortSignal,
  wanted: AnalysisWanted,
): Promise<OffThreadAnalysis> {
  shared ??= new OpenApiWorkerPool();
  const { fingerprints, ...analysis } = await shared.run({ bytes, reader, limits, wanted, signal });
  return fingerprints === undefined
    ? analysis
    : { ...analysis, fingerprints: unpackFingerprints(fingerprints) };
}

/** `loadOpenApiDocument`, run in the worker: the document comes back with the rest. */
export async function loadOpenApiOffThread(
  bytes: Buffer,
  reader: OpenApiSourceReader,
  limits: BundleLimits,
  signal: AbortSignal,
): Promise<LoadedOpenApi & { threadId: number }> {
  const { document, format, text, refFiles, version, threadId } = await analyseOpenApiOffThread(
    bytes,
    reader,
    limits,
    signal,
    { document: true },
  );
  if (document === undefined) throw new Error('the OpenAPI worker sent no document');
  return { document, format, text, refFiles, version, threadId };
}

/** How many worker threads run now: 0 before the first load and after closing. */
export function openApiWorkerThreads(): number {
  return shared?.threads ?? 0;
}

/** Ends the worker threads; a later load starts the pool again. Idempotent. */
export async function closeOpenApiWorkers(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
