// Where an OpenAPI document comes from, behind one interface (openapi-source-types.ts): an http(s)
// address, a file of a mapped repository at its branch, or a local file. Each reads the document
// (conditionally when it can) and the files its `$ref`s name, which must stay where the document
// came from; this picks the reader of a spec's source.
import type { OpenApiConfig } from '../config/openapi-schema.js';
import type { GitMirror } from '../git/git-mirror.js';
import { FileSourceReader } from './file-source-reader.js';
import { GitSourceReader } from './git-source-reader.js';
import type { OpenApiSourceReader } from './openapi-source-types.js';
import { UrlSourceReader } from './url-source-reader.js';

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
