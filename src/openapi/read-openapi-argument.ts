// A document named on the command line (`docsync openapi validate|diff`): an http(s) address or a
// local file, read and validated exactly as a refresh reads a spec's source, `$ref`s confined the
// same way (the address's origin, or the file's folder).
import { DEFAULT_MAX_REF_FILES } from '../config/openapi-schema.js';
import { FileSourceReader } from './file-source-reader.js';
import type { LoadedOpenApi } from './load-openapi-document.js';
import { loadOpenApiOffThread } from './load-openapi-off-thread.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import type { OpenApiSourceReader } from './openapi-source-types.js';
import { UrlSourceReader } from './url-source-reader.js';

export interface ArgumentLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRefFiles: number;
  /** The folder a local file's `$ref`s may reach (`--root`, as `source.root`); its own folder without. */
  root?: string | undefined;
}

/** A spec's defaults (`maxBytes`, `timeout`, `maxRefFiles`): a command checks what a refresh would accept. */
export const ARGUMENT_LIMITS: Readonly<ArgumentLimits> = {
  maxBytes: 10 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRefFiles: DEFAULT_MAX_REF_FILES,
};

export type ArgumentRead =
  | { ok: true; loaded: LoadedOpenApi; bytes: Buffer; label: string }
  | { ok: false; error: OpenApiInvalidError; bytes: Buffer; label: string };

export function argumentReader(argument: string, cwd: string, limits: ArgumentLimits): OpenApiSourceReader {
  const sourceLimits = { maxBytes: limits.maxBytes, timeoutMs: limits.timeoutMs };
  return /^https?:\/\//i.test(argument)
    ? new UrlSourceReader(argument, sourceLimits)
    : new FileSourceReader({ file: argument, root: limits.root }, cwd, sourceLimits);
}

/**
 * Reads and validates the document: an invalid one comes back with its bytes, so that its problems
 * can be given by line; a source that cannot be read throws (OpenApiSourceError).
 */
export async function readOpenApiArgument(
  argument: string,
  cwd: string,
  limits: ArgumentLimits,
  signal: AbortSignal,
): Promise<ArgumentRead> {
  const reader = argumentReader(argument, cwd, limits);
  const read = await reader.read(undefined, signal);
  // No validators were sent, so the source cannot answer "not modified".
  const bytes = read.kind === 'read' ? read.bytes : Buffer.alloc(0);
  try {
    const loaded = await loadOpenApiOffThread(
      bytes,
      reader,
      { maxBytes: limits.maxBytes, maxRefFiles: limits.maxRefFiles },
      signal,
    );
    return { ok: true, loaded, bytes, label: reader.label };
  } catch (error) {
    if (!(error instanceof OpenApiInvalidError)) throw error;
    return { ok: false, error, bytes, label: reader.label };
  }
}
