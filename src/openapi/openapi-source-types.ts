// The interface every OpenAPI source reader implements, with what a read answers, in a file of its
// own: the readers (url, file, git) and the factory that picks one (openapi-source-reader.ts) both
// import it, so no reader imports the factory that imports it.

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

export interface SourceLimits {
  maxBytes: number;
  timeoutMs: number;
}
