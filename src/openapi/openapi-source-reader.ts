// Where an OpenAPI document comes from, behind one interface: an http(s) address, a file of a
// mapped repository at its branch, or a local file. Each reads the document (conditionally when it
// can) and the files its `$ref`s name, which must stay where the document came from.
import type { OpenApiConfig } from '../config/openapi-schema.js';
import type { GitMirror } from '../git/git-mirror.js';
import { FileSourceReader } from './file-source-reader.js';
import { GitSourceReader } from './git-source-reader.js';
import { UrlSourceReader } from './url-source-reader.js';

/** What tells a source's next read that nothing changed: HTTP validators, or a git blob id. */
export interface SourceValidators {
  etag?: string | undefined;
  lastModified?: string | undefined;
  blob?: string | undefined;
}

export type SourceRead =
  | { kind: 'not-modified' }
  | { kind: 'read'; bytes: Buffer; validators: SourceValidators };

export interface OpenApiSourceReader {
  /** The document's address as a URL, against which relative `$ref`s resolve. */
  readonly location: string;
  /** How logs and errors name the source: no credentials. */
  readonly label: string;
  /** Reads the document; `not-modified` only when `previous` still describes it. */
  read(previous: SourceValidators | undefined, signal: AbortSignal): Promise<SourceRead>;
  /** Reads a file a `$ref` names, given its resolved URL; refuses one outside the source. */
  readRef(location: string, signal: AbortSignal): Promise<Buffer>;
}

export interface SourceReaderDeps {
  mappings: readonly { name: string; git: { repo: string; branch: string } }[];
  mirrorFor: (repo: string) => GitMirror;
  /** The folder local paths (`file`, and its `root`) are relative to. */
  cwd: string;
}

export function openApiSourceReader(spec: OpenApiConfig, deps: SourceReaderDeps): OpenApiSourceReader {
  const limits = { maxBytes: spec.maxBytes, timeoutMs: spec.timeout };
  const { source } = spec;
  if (typeof source === 'string') return new UrlSourceReader(source, limits);
  if ('file' in source) return new FileSourceReader(source, deps.cwd, limits);
  const mapping = deps.mappings.find((candidate) => candidate.name === source.mapping);
  // The configuration schema checks the name; a state from another configuration may not match.
  if (mapping === undefined) throw new Error(`no mapping is named ${source.mapping}`);
  return new GitSourceReader(mapping, source, deps.mirrorFor(mapping.git.repo), limits);
}

export interface SourceLimits {
  maxBytes: number;
  timeoutMs: number;
}
