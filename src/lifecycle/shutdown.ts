// The one owner of stopping. SIGINT and SIGTERM (and a crash) run the registered steps, last
// registered first, so that what started last stops first: producers, then workers (active jobs
// finish), queues, HTTP, Redis. Each step is guarded: one failing does not skip the others. A second
// signal, or the timeout, forces the exit with code 1 after aborting the jobs still running. The same
// signal again within a second is the first one twice, not a second request: Ctrl-C under `npm start`
// reaches docsync from the terminal and once more forwarded by npm.
import { ShutdownError } from '../errors/shutdown-error.js';
import type { Logger } from '../log/create-logger.js';

export interface ShutdownOptions {
  log: Logger;
  timeoutMs: number;
  /** Ends the process; injected so tests can watch it. */
  exit?: (code: number) => void;
  /** The process whose signals are handled. */
  proc?: Pick<NodeJS.Process, 'on' | 'removeListener' | 'exitCode'>;
  /** Milliseconds of a monotonic clock; injected so tests can step it. */
  clock?: () => number;
}

type Step = { name: string; run: () => Promise<void> | void };

export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** The same signal again within this long is a duplicate delivery, not a request to force. */
export const DUPLICATE_SIGNAL_MS = 1000;

export class Shutdown {
  readonly #log: Logger;
  readonly #timeoutMs: number;
  readonly #exit: (code: number) => void;
  readonly #proc: Pick<NodeJS.Process, 'on' | 'removeListener' | 'exitCode'>;
  readonly #steps: Step[] = [];
  readonly #force = new AbortController();
  readonly #begun = new AbortController();
  #running: Promise<void> | undefined;
  #start: Promise<unknown> | undefined;
  #finished = false;
  #crashed = false;
  #exitCode: number | undefined;
  #listening = false;
  readonly #clock: () => number;
  #firstSignal: { signal: NodeJS.Signals; at: number } | undefined;

  constructor(options: ShutdownOptions) {
    this.#log = options.log;
    this.#timeoutMs = options.timeoutMs;
    this.#exit = options.exit ?? ((code) => process.exit(code));
    this.#proc = options.proc ?? process;
    this.#clock = options.clock ?? (() => performance.now());
  }

  /** Aborted when the shutdown begins: producers and readiness stop on it. */
  get begun(): AbortSignal {
    return this.#begun.signal;
  }

  /** Aborted when the shutdown is forced: processors still running get it through their ctx.signal. */
  get forced(): AbortSignal {
    return this.#force.signal;
  }

  /**
   * Marks the start under way: a shutdown that begins meanwhile waits for it to settle (the start
   * stops at its next stage), then closes what it opened.
   */
  starting<T>(start: Promise<T>): Promise<T> {
    this.#start = start;
    return start;
  }

  /** The exit code the shutdown settled on, once it has run. */
  get exitCode(): number | undefined {
    return this.#exitCode;
  }

  /**
   * Registers a step; steps run in reverse order of registration. A step added while the shutdown
   * runs (a part that finished starting meanwhile) runs next; one added after it ended runs at once.
   */
  add(name: string, run: () => Promise<void> | void): void {
    if (this.#finished) {
      void this.#runStep({ name, run });
      return;
    }
    this.#steps.unshift({ name, run });
  }

  /** Installs the signal and crash handlers. */
  listen(): void {
    if (this.#listening) return;
    this.#listening = true;
    for (const signal of SHUTDOWN_SIGNALS) this.#proc.on(signal, this.#onSignal);
    this.#proc.on('uncaughtException', this.#onCrash);
    this.#proc.on('unhandledRejection', this.#onCrash);
  }

  /** Runs every step once; later calls return the same promise. */
  /**
   * Runs every step once; later calls return the same promise. `timeoutMs` shortens the wait before
   * the exit is forced, for a shutdown caused by a crash, where nothing is worth waiting long for.
   */
  run(reason: string, exitCode = 0, options: { timeoutMs?: number } = {}): Promise<void> {
    this.#running ??= this.#runSteps(
      reason,
      exitCode,
      Math.min(options.timeoutMs ?? this.#timeoutMs, this.#timeoutMs),
    );
    return this.#running;
  }

  readonly #onSignal = (signal: NodeJS.Signals) => {
    const at = this.#clock();
    if (this.#running !== undefined) {
      const first = this.#firstSignal;
      if (first?.signal === signal && at - first.at < DUPLICATE_SIGNAL_MS) {
        this.#log.debug({ signal }, 'same signal delivered twice, already shutting down');
        return;
      }
      this.#forceExit(`second ${signal}`);
      return;
    }
    this.#firstSignal = { signal, at };
    void this.run(signal);
  };

  readonly #onCrash = (error: unknown) => {
    this.#log.fatal({ err: error }, 'unexpected error, shutting down');
    this.#crashed = true;
    if (this.#running !== undefined) return;
    void this.run('crash', 1);
  };

  async #runSteps(reason: string, exitCode: number, timeoutMs: number): Promise<void> {
    this.#log.info({ reason, timeoutMs }, 'shutting down');
    this.#begun.abort();
    const timer = setTimeout(() => this.#forceExit('timeout'), timeoutMs);
    await this.#start?.catch(() => undefined);
    let failed = false;
    for (let step = this.#steps.shift(); step !== undefined; step = this.#steps.shift()) {
      if (!(await this.#runStep(step))) failed = true;
    }
    this.#finished = true;
    clearTimeout(timer);
    if (this.#force.signal.aborted) return;
    for (const signal of SHUTDOWN_SIGNALS) this.#proc.removeListener(signal, this.#onSignal);
    const code = failed || this.#crashed ? Math.max(exitCode, 1) : exitCode;
    this.#exitCode = code;
    this.#proc.exitCode = code;
    this.#log.info({ exitCode: code }, 'shutdown complete');
    // Everything is closed; if a stray handle still holds the event loop, do not hang on it.
    setTimeout(() => {
      this.#log.warn(
        { handles: process.getActiveResourcesInfo() },
        'handles still open after shutdown, exiting',
      );
      this.#exit(code);
    }, 2000).unref();
  }

  async #runStep(step: Step): Promise<boolean> {
    const started = Date.now();
    try {
      await step.run();
      this.#log.debug({ step: step.name, durationMs: Date.now() - started }, 'shutdown step done');
      return true;
    } catch (error) {
      this.#log.error({ step: step.name, err: error }, 'shutdown step failed');
      return false;
    }
  }

  #forceExit(reason: string): void {
    if (this.#force.signal.aborted) return;
    this.#log.error({ reason }, 'shutdown forced, active jobs aborted');
    this.#force.abort(new ShutdownError());
    this.#exitCode = 1;
    this.#exit(1);
  }
}
