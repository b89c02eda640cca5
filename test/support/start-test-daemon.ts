// Starts docsync's daemon in the test process against the private Redis, on a free port, with
// a shutdown owner that never ends the test process; stops it after the file.
import { EventEmitter } from 'node:events';
import { parseConfig } from '../../src/config/load-config.js';
import { type Daemon, startDaemon } from '../../src/daemon/start-daemon.js';
import { Shutdown } from '../../src/lifecycle/shutdown.js';
import type { AnyJobDefinition } from '../../src/queue/job-definition.js';
import { closeAfter } from './close-after.js';
import { captureLog, redisUrl } from './test-context.js';

export interface TestDaemon extends Daemon {
  shutdown: Shutdown;
  lines: Array<Record<string, unknown>>;
  /** The log lines as written (see captureLog). */
  texts: string[];
}

export async function startTestDaemon(options: {
  prefix: string;
  yaml?: string;
  jobs?: readonly AnyJobDefinition[];
}): Promise<TestDaemon> {
  const config = parseConfig(
    `redis:\n  url: ${redisUrl()}\n  prefix: ${options.prefix}\nhttp:\n  listen: 127.0.0.1:0\n${options.yaml ?? ''}`,
    'test.yaml',
    {},
  );
  const { log, lines, texts } = captureLog();
  const proc = Object.assign(new EventEmitter(), { exitCode: undefined });
  const shutdown = new Shutdown({
    log,
    timeoutMs: 10_000,
    exit: () => {},
    proc: proc as unknown as NodeJS.Process,
  });
  closeAfter(() => shutdown.run('test finished'));
  const daemon = await startDaemon({
    config,
    log,
    jobs: options.jobs ?? [],
    shutdown,
    version: '0.0.0-test',
  });
  return { ...daemon, shutdown, lines, texts };
}
