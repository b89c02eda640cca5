// The shutdown owner for docsync run inside a test or benchmark process: it watches a stand-in for
// the process, so running it never exits the process nor sets its exit code.
import { EventEmitter } from 'node:events';
import { Shutdown } from '../../src/lifecycle/shutdown.js';
import type { Logger } from '../../src/log/create-logger.js';

export function detachedShutdown(log: Logger, timeoutMs = 10_000): Shutdown {
  const proc = Object.assign(new EventEmitter(), { exitCode: undefined });
  return new Shutdown({ log, timeoutMs, exit: () => {}, proc: proc as unknown as NodeJS.Process });
}
