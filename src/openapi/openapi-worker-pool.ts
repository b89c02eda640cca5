// A small pool of OpenAPI worker threads (src/openapi/openapi-worker-main.ts), started on first use
// and unref'd while idle, so that a command line ends when its work does. A task's `$ref` reads are
// served here through the source reader, its limits enforced where they always were. An abort ends
// the worker running the task (synchronous parsing cannot be interrupted otherwise); the next task
// starts another. `close()` ends them all: the daemon's shutdown calls it.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AnalysisWanted, OpenApiAnalysis } from './analyse-openapi-document.js';
import type { BundleLimits } from './bundle-openapi-refs.js';
import type { OpenApiSourceReader } from './openapi-source-types.js';
import { openApiWorkerEntry } from './openapi-worker-entry.js';
import type { FromWorker, RefRequest, ToWorker } from './openapi-worker-protocol.js';
import { fromThreadError, toThreadError } from './thread-error.js';

export interface PoolAnalysis extends OpenApiAnalysis {
  /** The thread that did the work: never the main thread's (0). */
  threadId: number;
}

export interface OpenApiTask {
  bytes: Buffer;
  reader: OpenApiSourceReader;
  limits: BundleLimits;
  wanted: AnalysisWanted;
  signal: AbortSignal;
}

/** One thread, two on a larger machine: parsing is for a spec's refresh, not for throughput. */
export const POOL_SIZE = Math.min(2, Math.max(1, availableParallelism() - 1));

export class OpenApiWorkerPool {
  readonly #size: number;
  readonly #idle: Worker[] = [];
  readonly #all = new Set<Worker>();
  readonly #queue: Array<(worker: Worker) => void> = [];
  #nextTask = 0;
  #closed = false;
  #entry: URL | undefined;

  constructor(size = POOL_SIZE) {
    this.#size = size;
  }

  /** How many worker threads are running, idle or busy. */
  get threads(): number {
    return this.#all.size;
  }

  async run(task: OpenApiTask): Promise<PoolAnalysis> {
    task.signal.throwIfAborted();
    const entry = await openApiWorkerEntry();
    task.signal.throwIfAborted();
    const worker = await this.#acquire(entry, task.signal);
    worker.ref();
    try {
      return await this.#runOn(worker, task);
    } finally {
      this.#release(worker);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const workers = [...this.#all];
    this.#all.clear();
    this.#idle.length = 0;
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  #acquire(entry: URL, signal: AbortSignal): Promise<Worker> {
    if (this.#closed) return Promise.reject(new Error('the OpenAPI worker pool is closed'));
    const idle = this.#idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.#all.size < this.#size) return Promise.resolve(this.#start(entry));
    return new Promise((resolve, reject) => {
      const take = (worker: Worker) => {
        signal.removeEventListener('abort', onAbort);
        resolve(worker);
      };
      const onAbort = () => {
        this.#queue.splice(this.#queue.indexOf(take), 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(take);
    });
  }

  #release(worker: Worker): void {
    if (!this.#all.has(worker)) {
      // Ended by an abort or a crash: a waiting task gets a new thread in its place.
      const next = this.#queue.shift();
      if (next !== undefined && !this.#closed) next(this.#start(this.#entry as URL));
      return;
    }
    const next = this.#queue.shift();
    if (next !== undefined) {
      next(worker);
      return;
    }
    worker.unref();
    this.#idle.push(worker);
  }

  #start(entry: URL): Worker {
    this.#entry = entry;
    const worker = new Worker(entry, { name: 'docsync-openapi' });
    worker.unref();
    this.#all.add(worker);
    // A thread that ends (a crash, an abort's terminate) leaves the pool; its task fails by itself.
    worker.on('exit', () => this.#drop(worker));
    worker.on('error', () => this.#drop(worker));
    return worker;
  }

  #drop(worker: Worker): void {
    this.#all.delete(worker);
    const index = this.#idle.indexOf(worker);
    if (index >= 0) this.#idle.splice(index, 1);
  }

  #runOn(worker: Worker, task: OpenApiTask): Promise<PoolAnalysis> {
    const id = this.#nextTask++;
    return new Promise<PoolAnalysis>((resolve, reject) => {
      const refs = new AbortController();
      const finish = (settle: () => void) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        task.signal.removeEventListener('abort', onAbort);
        refs.abort();
        settle();
      };
      const onMessage = (message: FromWorker) => {
        if (message.task !== id) return;
        if (message.type === 'ref') return void serveRef(worker, task, message, refs.signal);
        if (message.type === 'done') {
          const analysis = { ...message.analysis, threadId: message.threadId };
          return finish(() => resolve(analysis));
        }
        finish(() => reject(fromThreadError(message.error)));
      };
      const onError = (error: Error) => finish(() => reject(error));
      const onExit = (code: number) =>
        finish(() => reject(new Error(`the OpenAPI worker thread ended (exit code ${code})`)));
      const onAbort = () => {
        this.#drop(worker);
        void worker.terminate();
        finish(() => reject(task.signal.reason));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      task.signal.addEventListener('abort', onAbort, { once: true });
      // Aborted while the thread was being found: ended before it starts.
      if (task.signal.aborted) {
        onAbort();
        return;
      }
      // A copy of the bytes travels: the caller keeps its buffer (hashed, uploaded) as it was.
      const bytes = new Uint8Array(task.bytes);
      const message: ToWorker = {
        type: 'task',
        task: id,
        bytes,
        location: task.reader.location,
        label: task.reader.label,
        limits: task.limits,
        wanted: task.wanted,
      };
      worker.postMessage(message, [bytes.buffer]);
    });
  }
}

/** Reads a file a `$ref` names, here where the reader's mirror, HTTP agent and limits are. */
async function serveRef(worker: Worker, task: OpenApiTask, message: RefRequest, signal: AbortSignal) {
  const base = { type: 'ref', task: message.task, request: message.request } as const;
  let answer: ToWorker;
  let transfer: ArrayBuffer[] = [];
  try {
    const read = new Uint8Array(
      await task.reader.readRef(message.location, AbortSignal.any([signal, task.signal])),
    );
    answer = { ...base, ok: true, bytes: read };
    transfer = [read.buffer as ArrayBuffer];
  } catch (error) {
    answer = { ...base, ok: false, error: toThreadError(error) };
  }
  if (!signal.aborted) worker.postMessage(answer, transfer);
}
