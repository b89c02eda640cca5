// Processing of OpenAPI sources after the answer to a create or put: `pending`, then `progress`
// while the text is loaded and checked, then `complete`, with a new version only when the text
// differs from the last version's. A newer create or put of the same spec, or its deletion,
// supersedes a run still going: that run then writes nothing.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EmulatorContext } from './emulator-context.js';
import { nextSeq, type StoredOpenApiSpec, type StoredOpenApiVersion } from './emulator-state.js';
import { fetchOpenApiText } from './fetch-openapi-text.js';
import { newId } from './ids.js';
import { parseOpenApiText } from './parse-openapi-text.js';

/** Pause before each state change, so that clients can observe `pending` and `progress`. */
export const OPENAPI_STATE_DELAY_MS = 30;

export type OpenApiSource = { url: string } | { text: string };

export type OpenApiErrorCode = NonNullable<StoredOpenApiSpec['lastProcessErrorCode']>;

/** What a loaded text does to a spec: pure, given the text and the last version's hash. */
export type OpenApiOutcome =
  | { kind: 'error'; code: OpenApiErrorCode; reason?: string }
  | { kind: 'unchanged' }
  | { kind: 'new-version'; contentHash: string; text: string };

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function planOpenApiOutcome(text: string, lastHash: string | undefined): OpenApiOutcome {
  const parsed = parseOpenApiText(text);
  if (!parsed.ok) {
    const reason = parsed.reason === 'syntax' ? parsed.message : 'is not an OpenAPI document';
    return { kind: 'error', code: 'PARSE_ERROR', reason };
  }
  const contentHash = sha256(text);
  return contentHash === lastHash ? { kind: 'unchanged' } : { kind: 'new-version', contentHash, text };
}

export class OpenApiProcessor {
  readonly #ctx: EmulatorContext;
  readonly #delayMs: number;
  /** The latest run of each spec, by spec id. */
  readonly #runs = new Map<string, symbol>();

  constructor(ctx: EmulatorContext, delayMs = OPENAPI_STATE_DELAY_MS) {
    this.#ctx = ctx;
    this.#delayMs = delayMs;
  }

  /** Marks the spec pending and processes `source` in the background. */
  start(spec: StoredOpenApiSpec, source: OpenApiSource): void {
    spec.processingState = 'pending';
    const run = Symbol(spec.id);
    this.#runs.set(spec.id, run);
    this.#ctx.background(
      this.#process(spec, source, run).catch((error: unknown) =>
        this.#ctx.log.error({ err: error, specId: spec.id }, 'openapi processing failed'),
      ),
    );
  }

  /** Stops caring about a deleted spec: a run still going for it writes nothing. */
  forget(specId: string): void {
    this.#runs.delete(specId);
  }

  async #process(spec: StoredOpenApiSpec, source: OpenApiSource, run: symbol): Promise<void> {
    const ctx = this.#ctx;
    const current = () => this.#runs.get(spec.id) === run && ctx.state.openapiSpecs[spec.id] === spec;
    await sleep(this.#delayMs);
    if (!current()) return;
    spec.processingState = 'progress';
    spec.updatedAt = ctx.now().toISOString();
    ctx.changed();

    const loaded =
      'text' in source
        ? { ok: true as const, text: source.text }
        : await fetchOpenApiText(source.url, ctx.limits);
    await sleep(this.#delayMs);
    if (!current()) return;
    const last = spec.lastVersion === undefined ? undefined : ctx.state.openapiVersions[spec.lastVersion];
    const outcome: OpenApiOutcome = loaded.ok
      ? planOpenApiOutcome(loaded.text, last?.contentHash)
      : { kind: 'error', code: loaded.code };
    const now = ctx.now().toISOString();
    if (outcome.kind === 'error') {
      spec.lastProcessErrorCode = outcome.code;
      ctx.log.info(
        { specId: spec.id, code: outcome.code, reason: outcome.reason },
        'openapi source rejected',
      );
    } else {
      if (outcome.kind === 'new-version') {
        const version: StoredOpenApiVersion = {
          id: newId('oav_'),
          seq: nextSeq(ctx.state),
          specId: spec.id,
          createdAt: now,
          contentHash: outcome.contentHash,
          text: outcome.text,
          ...('url' in source ? { sourceURL: source.url } : {}),
        };
        ctx.state.openapiVersions[version.id] = version;
        spec.lastVersion = version.id;
      }
      spec.lastProcessedAt = now;
      delete spec.lastProcessErrorCode;
    }
    spec.processingState = 'complete';
    spec.updatedAt = now;
    this.#runs.delete(spec.id);
    ctx.changed();
  }
}
