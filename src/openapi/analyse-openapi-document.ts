// Everything a refresh computes from a source's bytes, in one call the OpenAPI worker runs: the
// loaded document (parsed, bundled, validated), and on request its operation fingerprints, its
// contract, its canonical digest and its title, so that the main thread never walks the document.

import type { BundleLimits } from './bundle-openapi-refs.js';
import { canonicalDigest } from './canonical-digest.js';
import { type LoadedOpenApi, loadOpenApiDocument } from './load-openapi-document.js';
import { openApiContract, packContract } from './openapi-contract.js';
import type { OpenApiSourceReader } from './openapi-source-types.js';
import { operationFingerprints } from './operation-fingerprints.js';
import { type PackedFingerprints, packFingerprints } from './transferable-fingerprints.js';

/** What the caller needs beyond the text: each costs a walk of the document, and crossing threads. */
export interface AnalysisWanted {
  /** The parsed document itself (a CLI's diff); a refresh does without it. */
  document?: boolean;
  /** Fingerprints, contract and title: what a refresh records. */
  fingerprints?: boolean;
  /** The canonical digest, to compare with the service's latest version. */
  digest?: boolean;
}

export interface OpenApiAnalysis extends Omit<LoadedOpenApi, 'document'> {
  document?: Record<string, unknown>;
  fingerprints?: PackedFingerprints;
  /**
   * The contract packed as the state keeps it: a short string crosses threads at once, where the
   * object took the main thread tens of ms to receive; unpacked only to compare with the last one.
   */
  packedContract?: string;
  digest?: string;
  /** The document's `info.title`, as the status shows it: one line, at most 200 characters. */
  title?: string;
}

export async function analyseOpenApiDocument(
  bytes: Buffer,
  reader: OpenApiSourceReader,
  limits: BundleLimits,
  signal: AbortSignal,
  wanted: AnalysisWanted,
): Promise<OpenApiAnalysis> {
  const { document, ...loaded } = await loadOpenApiDocument(bytes, reader, limits, signal);
  const analysis: OpenApiAnalysis = { ...loaded };
  if (wanted.document === true) analysis.document = document;
  if (wanted.fingerprints === true) {
    analysis.fingerprints = packFingerprints(await operationFingerprints(document, { signal }));
    analysis.packedContract = await packContract(await openApiContract(document, { signal }));
    const title = titleOf(document);
    if (title !== '') analysis.title = title;
  }
  if (wanted.digest === true) analysis.digest = await canonicalDigest(document, { signal });
  return analysis;
}

function titleOf(document: Record<string, unknown>): string {
  const info = document.info as { title?: unknown } | undefined;
  return typeof info?.title === 'string' ? info.title.replace(/\s+/g, ' ').trim().slice(0, 200) : '';
}
