// One refresh of one OpenAPI spec: read the source (conditionally), stop when it is the content
// last uploaded, validate it, upload it, follow the service's processing, and record the version
// with what changed since the last one, the changes that break clients marked (from the contract
// kept of the last upload). Nothing invalid and nothing unchanged is ever uploaded: without a record
// of the last upload (Redis lost it), the service's latest version stands for it.
import { createHash } from 'node:crypto';
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { OpenApiConfig } from '../config/openapi-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import type { Logger } from '../log/create-logger.js';
import type { OpenApiState, OpenApiStateStore, OpenApiUpload } from '../state/openapi-state-store.js';
import { type BreakingChange, breakingChanges } from './breaking-changes.js';
import { canonicalDigest } from './canonical-digest.js';
import { analyseOpenApiOffThread, type OffThreadAnalysis } from './load-openapi-off-thread.js';
import { type OpenApiContract, openApiContract, unpackContract } from './openapi-contract.js';
import type { OpenApiSourceReader, SourceValidators } from './openapi-source-types.js';
import { diffOperations, type OperationChanges, summariseOperationChanges } from './operation-changes.js';
import { type OperationFingerprints, operationFingerprints } from './operation-fingerprints.js';
import { type LatestVersion, readLatestVersion } from './read-latest-version.js';
import { recordVersionChanges } from './record-version-changes.js';
import { waitForProcessing } from './wait-for-processing.js';

export interface RefreshInput {
  spec: OpenApiConfig;
  reader: OpenApiSourceReader;
  api: DocsApiClient | undefined;
  store: OpenApiStateStore;
  log: Logger;
  now: () => Date;
  signal: AbortSignal;
  dryRun: boolean;
  /** What started the refresh: schedule, git, now... recorded for /status. */
  trigger: string;
}

/** What a new version holds: its operations (how many), what changed since the last, what breaks. */
interface NewContent {
  operations: number;
  changes: OperationChanges;
  breaking: BreakingChange[];
  changelog: string[];
}

export type RefreshResult =
  | { result: 'unchanged'; reason: 'not-modified' | 'same-content' }
  /**
   * docsync had no record of its last upload, and the service's latest version holds this document:
   * the record is rebuilt from that version, and nothing is sent.
   */
  | { result: 'unchanged'; reason: 'same-as-service'; version: string }
  | ({ result: 'uploaded'; version: string | undefined } & NewContent)
  | { result: 'no-new-version'; version: string | undefined }
  | ({ result: 'would-upload' } & NewContent);

/** Error codes of the service that the content caused: the same bytes would fail the same way. */
const CONTENT_ERRORS: ReadonlySet<string> = new Set(['PARSE_ERROR']);

export async function refreshOpenApiSpec(input: RefreshInput): Promise<RefreshResult> {
  const { spec, reader, store, signal } = input;
  const log = input.log.child({ org: spec.org, slug: spec.slug });
  const state = await store.get(spec.org, spec.slug);
  const last = state.uploaded;
  // With `$ref`d files the document's own validators cannot vouch for the files it names.
  const trusted = last !== undefined && last.refFiles === 0 ? last.validators : undefined;
  const read = await reader.read(trusted, signal);
  if (read.kind === 'not-modified') return unchanged(input, state, 'not-modified', undefined);

  const sourceHash = sha256(read.bytes);
  if (last !== undefined && last.refFiles === 0 && last.sourceHash === sourceHash)
    return unchanged(input, state, 'same-content', read.validators);

  // No record of the last upload (a first one, or Redis lost it): what the service holds stands for it.
  const compare = last === undefined && input.api !== undefined;
  // Parsed, bundled, validated and fingerprinted in a worker thread: a spec of 10 MB is seconds of
  // synchronous work, which must not stop the health check or lock renewals.
  const loaded = await analyseOpenApiOffThread(
    read.bytes,
    reader,
    { maxBytes: spec.maxBytes, maxRefFiles: spec.maxRefFiles },
    signal,
    { fingerprints: true, digest: compare },
  );
  const hash = sha256(loaded.text);
  if (last !== undefined && last.hash === hash)
    return unchanged(input, state, 'same-content', read.validators);
  if (state.rejected?.hash === hash) {
    throw new DocsyncError(
      'OPENAPI_REJECTED_BEFORE',
      `the service refused this content of ${spec.org}/${spec.slug} before (${state.rejected.code}): it is not uploaded again until the source changes`,
    );
  }

  const latest =
    compare && input.api !== undefined
      ? await readLatestVersion(input.api, spec.org, spec.slug, signal)
      : undefined;
  const { fingerprints, packedContract } = analysed(loaded);
  const record = {
    hash,
    sourceHash,
    refFiles: loaded.refFiles,
    validators: read.validators,
    ...fingerprintsOf(fingerprints),
    ...(loaded.title === undefined ? {} : { title: loaded.title }),
  };
  if (latest?.document !== undefined) {
    // Compared as parsed documents: the service keeps what it parsed, not the bytes sent.
    const theirs = await canonicalDigest(latest.document, { signal });
    if (theirs === loaded.digest)
      return foundOnService(input, latest, { ...record, contract: packedContract });
  }
  const content = await newContent(
    await baselineOf(last, latest, signal),
    fingerprints,
    packedContract,
    signal,
  );
  if (input.dryRun) {
    const { changes, breaking, changelog } = content;
    log.info(
      { source: reader.label, ...counts(changes), breaking: breaking.length, changelog },
      'dry run: openapi spec would be uploaded',
    );
    return { result: 'would-upload', ...content };
  }
  return await uploadNewVersion(
    input,
    log,
    { loaded, hash, record: { ...record, contract: packedContract } },
    content,
  );
}

/** What a new version holds, against the baseline (the last upload, else the service's latest version). */
async function newContent(
  baseline: Baseline | undefined,
  fingerprints: OperationFingerprints,
  packedContract: string,
  signal: AbortSignal,
): Promise<NewContent> {
  const changes = diffOperations(baseline, fingerprints);
  const breaking = await breakingSince(baseline?.contract, packedContract, changes, signal);
  const changelog = summariseOperationChanges(changes, undefined, breaking);
  const operations = Object.keys(fingerprints.operations).length;
  return { operations, changes, breaking, changelog };
}

/**
 * Uploads the document, follows the service's processing, and records what came of it: a new
 * version with its changes, the service's latest version kept, or content it refused (not sent again).
 */
async function uploadNewVersion(
  input: RefreshInput,
  log: Logger,
  checked: { loaded: OffThreadAnalysis; hash: string; record: Omit<OpenApiUpload, 'at' | 'version'> },
  content: NewContent,
): Promise<RefreshResult> {
  const { spec, reader, store, signal } = input;
  const { loaded, hash, record } = checked;
  if (input.api === undefined)
    throw new DocsyncError(
      'SERVICE_NOT_CONFIGURED',
      'OpenAPI refreshes need service.baseUrl and service.token',
    );
  const source =
    spec.upload === 'url' && typeof spec.source === 'string' ? { url: spec.source } : { text: loaded.text };
  const before = await input.api.openapi.put(spec.org, spec.slug, source, { signal });
  const done = await waitForProcessing(input.api, spec.org, spec.slug, {
    timeoutMs: spec.processingTimeout,
    signal,
  });
  const at = input.now().toISOString();
  if (done.lastProcessErrorCode !== undefined) {
    const code = done.lastProcessErrorCode;
    if (CONTENT_ERRORS.has(code)) await store.update(spec.org, spec.slug, { rejected: { hash, code, at } });
    throw new DocsyncError(
      `OPENAPI_${code}`,
      `the service could not process ${spec.org}/${spec.slug} (${code}) from ${reader.label}`,
      // The service failing to fetch the address may pass; content it cannot parse will not.
      { retryable: !CONTENT_ERRORS.has(code) },
    );
  }
  const version = done.lastVersion;
  const created = version !== undefined && version !== before.lastVersion;
  const upload = { at, ...record, ...(version === undefined ? {} : { version }) };
  if (!created) {
    // The service found the text equal to its latest version: nothing new, and nothing lost.
    await store.update(spec.org, spec.slug, {
      uploaded: upload,
      rejected: undefined,
      lastRefresh: {
        at,
        result: 'no-new-version',
        trigger: input.trigger,
        ...(version === undefined ? {} : { version }),
      },
    });
    log.info({ version }, 'openapi spec uploaded, the service kept its latest version');
    return { result: 'no-new-version', version };
  }
  const { changes, breaking, changelog } = content;
  const refresh = {
    at,
    result: 'uploaded',
    trigger: input.trigger,
    version,
    changes: recordVersionChanges(changes, breaking),
    changelog,
  };
  await store.update(spec.org, spec.slug, {
    uploaded: upload,
    rejected: undefined,
    lastRefresh: refresh,
    lastVersion: refresh,
  });
  log.info(
    {
      version,
      source: reader.label,
      openapi: loaded.version,
      refFiles: loaded.refFiles,
      ...counts(changes),
      breaking: breaking.length,
      changelog,
    },
    'openapi spec uploaded as a new version',
  );
  return { result: 'uploaded', version, ...content };
}

/** What a new version is compared with: operation and component fingerprints, and the contract. */
interface Baseline {
  operations: Record<string, string>;
  components?: Record<string, string> | undefined;
  contract: OpenApiContract | undefined;
}

/**
 * The last upload as recorded; without a record, the service's latest version (Redis lost the
 * record, and this document differs from what the service holds: its changes are counted from it).
 */
async function baselineOf(
  last: OpenApiUpload | undefined,
  latest: LatestVersion | undefined,
  signal: AbortSignal,
): Promise<Baseline | undefined> {
  if (last !== undefined) {
    const contract = last.contract === undefined ? undefined : await unpackContract(last.contract);
    return { operations: last.operations, components: last.components, contract };
  }
  if (latest?.document === undefined) return undefined;
  return {
    ...fingerprintsOf(await operationFingerprints(latest.document, { signal })),
    contract: await openApiContract(latest.document, { signal }),
  };
}

/** The service's latest version holds this document: recorded as the last upload, nothing sent. */
async function foundOnService(
  input: RefreshInput,
  latest: LatestVersion,
  record: Omit<OpenApiUpload, 'at' | 'version'>,
): Promise<RefreshResult> {
  const { spec, store } = input;
  const at = input.now().toISOString();
  input.log.info(
    { org: spec.org, slug: spec.slug, version: latest.version },
    'openapi spec found unchanged on the service, not uploaded',
  );
  if (!input.dryRun) {
    await store.update(spec.org, spec.slug, {
      uploaded: { ...record, at: latest.createdAt ?? at, version: latest.version },
      rejected: undefined,
      lastRefresh: { at, result: 'unchanged', trigger: input.trigger, version: latest.version },
    });
  }
  return { result: 'unchanged', reason: 'same-as-service', version: latest.version };
}

function fingerprintsOf(fingerprints: OperationFingerprints) {
  return { operations: fingerprints.operations, components: fingerprints.components };
}

/**
 * What the new version breaks: against the contract of the last upload, in the operations whose
 * fingerprints changed; without one (a first upload, or one recorded by an older docsync), only
 * the operations removed are known.
 */
async function breakingSince(
  before: OpenApiContract | undefined,
  packedContract: string,
  changes: OperationChanges,
  signal: AbortSignal,
): Promise<BreakingChange[]> {
  const contract = before === undefined ? undefined : await unpackContract(packedContract);
  if (before === undefined || contract === undefined)
    return changes.removed.map((operation) => ({ operation, kind: 'removed-operation' as const }));
  const only = new Set([...changes.changed, ...changes.changedVia.map((entry) => entry.operation)]);
  return breakingChanges(before, contract, { signal, only });
}

async function unchanged(
  input: RefreshInput,
  state: OpenApiState,
  reason: 'not-modified' | 'same-content',
  validators: SourceValidators | undefined,
): Promise<RefreshResult> {
  const { spec, store } = input;
  input.log.info({ org: spec.org, slug: spec.slug, reason }, 'openapi spec unchanged, not uploaded');
  if (!input.dryRun) {
    const at = input.now().toISOString();
    await store.update(spec.org, spec.slug, {
      // New validators for the same content (a server that changed its ETag): keep them for next time.
      ...(validators === undefined || state.uploaded === undefined
        ? {}
        : { uploaded: { ...state.uploaded, validators } }),
      lastRefresh: {
        at,
        result: 'unchanged',
        trigger: input.trigger,
        ...(state.uploaded?.version === undefined ? {} : { version: state.uploaded.version }),
      },
    });
  }
  return { result: 'unchanged', reason };
}

function counts(changes: OperationChanges) {
  return {
    added: changes.added.length,
    removed: changes.removed.length,
    changed: changes.changed.length,
    changedVia: changes.changedVia.length,
  };
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The fingerprints and the contract the worker made: asked for, so always there. */
function analysed(loaded: OffThreadAnalysis): {
  fingerprints: OperationFingerprints;
  packedContract: string;
} {
  if (loaded.fingerprints === undefined || loaded.packedContract === undefined)
    throw new Error('the OpenAPI worker sent no fingerprints');
  return { fingerprints: loaded.fingerprints, packedContract: loaded.packedContract };
}
