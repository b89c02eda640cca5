// The messages between the main thread and an OpenAPI worker. A task carries the source's bytes
// and limits; while it runs, the worker asks the main thread for each file a `$ref` names (the
// source reader, its git mirror, HTTP agent and limits stay on the main thread) and gets its bytes
// or the error reading it; the task ends with the analysis or the error, rebuilt as its class.

import type { AnalysisWanted, OpenApiAnalysis } from './analyse-openapi-document.js';
import type { BundleLimits } from './bundle-openapi-refs.js';
import type { ThreadError } from './thread-error.js';

export interface TaskMessage {
  type: 'task';
  task: number;
  bytes: Uint8Array;
  /** The source's location and label: `$ref`s resolve against the one, errors name the other. */
  location: string;
  label: string;
  limits: BundleLimits;
  wanted: AnalysisWanted;
}

export type RefAnswer =
  | { type: 'ref'; task: number; request: number; ok: true; bytes: Uint8Array }
  | { type: 'ref'; task: number; request: number; ok: false; error: ThreadError };

export type ToWorker = TaskMessage | RefAnswer;

export interface RefRequest {
  type: 'ref';
  task: number;
  request: number;
  location: string;
}

export type FromWorker =
  | RefRequest
  | { type: 'done'; task: number; analysis: OpenApiAnalysis; threadId: number }
  | { type: 'failed'; task: number; error: ThreadError };
