// The one owner of stopping. SIGINT and SIGTERM (and a crash) run the registered steps, last
// registered first, so that what started last stops first: producers, then workers (active jobs
// finish), queues, HTTP, Redis. Each step is guarded: one failing does not skip the others. A second
// signal, or the timeout, forces the exit with code 1 after aborting the jobs still running.
import type { Logger } from '../log/create-logger.js';

export interface ShutdownOptions {
  log: Logger;
  timeoutMs: number;
  /** Ends the process; injected so tests can watch it. */
  exit?: (code: number) => void;
  /** The process whose signals are handled. */
  proc?: Pick<NodeJS.Process, 'on' | 'removeListener' | 'exitCode'>;
}

type Step = { name: string; run: () => Promise<void> | void };

export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export class Shutdown {
  readonly #log: Logger;
  readonly #timeoutMs: number;
  readonly #exit: (code: number) => void;
  readonly #proc: Pick<NodeJS.Process, 'on' | 'removeListener' | 'exitCode'>;
  readonly #steps: Step[] = [];
  readonly #force = new AbortController();
  readonly #begun = new AbortController();
  #running: Promise<void> | undefined;
  #listening = false;

  constructor(options: ShutdownOptions) {
    this.#log = options.log;
    this.#timeoutMs = options.timeoutMs;
    this.#exit = options.exit ?? ((code) => process.exit(code));
    this.#proc = options.proc ?? process;
  }

  /** Aborted when the shutdown begins: producers and readiness stop on it. */
  get begun(): AbortSignal {
    return this.#begun.signal;
  }

  /** Aborted when the shutdown is forced: processors still running get it through their ctx.signal. */
  get forced(): AbortSignal {
    return this.#force.signal;
  }

  /** Registers a step; steps run in reverse order of registration. */
  add(name: string, run: () => Promise<void> | void): void {
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
  run(reason: string, exitCode = 0): Promise<void> {
    this.#running ??= this.#runSteps(reason, exitCode);
    return this.#running;
  }

  readonly #onSignal = (signal: NodeJS.Signals) => {
    if (this.#running !== undefined) {
      this.#forceExit(`second ${signal}`);
      return;
    }
    void this.run(signal);
  };

  readonly #onCrash = (error: unknown) => {
    this.#log.fatal({ err: error }, 'unexpected error, shutting down');
    if (this.#running !== undefined) return;
    void this.run('crash', 1);
  };

  async #runSteps(reason: string, exitCode: number): Promise<void> {
    this.#log.info({ reason, timeoutMs: this.#timeoutMs }, 'shutting down');
    this.#begun.abort();
    const timer = setTimeout(() => this.#forceExit('timeout'), this.#timeoutMs);
    let failed = false;
    for (const step of this.#steps) {
      const started = Date.now();
      try {
        await step.run();
        this.#log.debug({ step: step.name, durationMs: Date.now() - started }, 'shutdown step done');
      } catch (error) {
        failed = true;
        this.#log.error({ step: step.name, err: error }, 'shutdown step failed');
      }
    }
    clearTimeout(timer);
    if (this.#force.signal.aborted) return;
    for (const signal of SHUTDOWN_SIGNALS) this.#proc.removeListener(signal, this.#onSignal);
    const code = failed ? Math.max(exitCode, 1) : exitCode;
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

  #forceExit(reason: string): void {
    if (this.#force.signal.aborted) return;
    this.#log.error({ reason }, 'shutdown forced, active jobs aborted');
    this.#force.abort();
    this.#exit(1);
  }
}
