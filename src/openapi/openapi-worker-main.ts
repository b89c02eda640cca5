// The OpenAPI worker thread: parses, bundles, validates and fingerprints a document off the main
// thread, whose event loop keeps serving /healthz, lock renewals and sockets meanwhile (a 10 MB
// YAML is seconds of synchronous parsing). Files named by `$ref` are read by the main thread.
import { parentPort, threadId } from 'node:worker_threads';
import { analyseOpenApiDocument } from './analyse-openapi-document.js';
import type { OpenApiSourceReader, SourceRead } from './openapi-source-types.js';
import type { FromWorker, RefAnswer, TaskMessage, ToWorker } from './openapi-worker-protocol.js';
import { fromThreadError, toThreadError } from './thread-error.js';

if (parentPort === null) throw new Error('openapi-worker-main runs as a worker thread only');
const port = parentPort;
const waiting = new Map<number, { resolve: (bytes: Buffer) => void; reject: (error: Error) => void }>();
let nextRequest = 0;

function post(message: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

/** The source as the bundler sees it here: each `$ref`'d file is a request to the main thread. */
function threadReader(message: TaskMessage): OpenApiSourceReader {
  return {
    location: message.location,
    label: message.label,
    read: (): Promise<SourceRead> => Promise.reject(new Error('the worker reads referenced files only')),
    readRef: (location, signal) => {
      signal.throwIfAborted();
      const request = nextRequest++;
      post({ type: 'ref', task: message.task, request, location });
      return new Promise((resolve, reject) => waiting.set(request, { resolve, reject }));
    },
  };
}

async function runTask(message: TaskMessage): Promise<void> {
  // The main thread ends a cancelled task by ending this thread: nothing here aborts on its own.
  const signal = new AbortController().signal;
  try {
    const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
    const analysis = await analyseOpenApiDocument(
      bytes,
      threadReader(message),
      message.limits,
      signal,
      message.wanted,
    );
    const transfer = Object.values(analysis.fingerprints?.reached ?? {}).map((indexes) => indexes.buffer);
    post({ type: 'done', task: message.task, analysis, threadId }, transfer as ArrayBuffer[]);
  } catch (error) {
    post({ type: 'failed', task: message.task, error: toThreadError(error) });
  }
}

function answer(message: RefAnswer): void {
  const pending = waiting.get(message.request);
  if (pending === undefined) return;
  waiting.delete(message.request);
  if (message.ok)
    pending.resolve(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
  else pending.reject(fromThreadError(message.error));
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'task') void runTask(message);
  else answer(message);
});
