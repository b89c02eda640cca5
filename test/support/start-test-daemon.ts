// Starts docsync's daemon in the test process against the private Redis, on a free port, with
// a shutdown owner that never ends the test process; stops it after the file.
import type { Env } from '../../src/config/interpolate-env.js';
import { parseConfig } from '../../src/config/load-config.js';
import { type Daemon, startDaemon } from '../../src/daemon/start-daemon.js';
import type { Shutdown } from '../../src/lifecycle/shutdown.js';
import type { AnyJobDefinition } from '../../src/queue/job-definition.js';
import { closeAfter } from './close-after.js';
import { detachedShutdown } from './detached-shutdown.js';
import type { TestEmulator } from './start-test-emulator.js';
import { captureLog, redisUrl, tempDir } from './test-context.js';

export interface TestDaemon extends Daemon {
  shutdown: Shutdown;
  lines: Array<Record<string, unknown>>;
  /** The log lines as written (see captureLog). */
  texts: string[];
}

export async function startTestDaemon(options: {
  prefix: string;
  /**
   * The `redis:` section, indented under it, for a Redis the test describes itself (a Cluster, a
   * Sentinel set, a TLS server); the private Redis with `prefix` when not given.
   */
  redis?: string;
  /** More of the config; it may go on with the `http:` section. */
  yaml?: string;
  jobs?: readonly AnyJobDefinition[];
  /** The local service the jobs talk to, as its admin. */
  service?: TestEmulator;
  /** The data folder, for daemons that share one; a new temp folder when a service is given without it. */
  dataDir?: string;
  /** The environment the configuration is read with (its `${VAR}`s and `tokenEnv`s); none when not given. */
  env?: Env;
}): Promise<TestDaemon> {
  const { service } = options;
  const dataDir = options.dataDir ?? (service === undefined ? undefined : await tempDir('daemon-data'));
  const top = [
    `redis:\n${options.redis ?? `  url: ${redisUrl()}\n  prefix: ${options.prefix}\n`}`,
    dataDir === undefined ? '' : `dataDir: ${dataDir}\n`,
    service === undefined
      ? ''
      : `service: { baseUrl: "${service.baseUrl}", token: ${service.tokens.admin} }\n`,
    'http:\n  listen: 127.0.0.1:0\n',
  ];
  const config = parseConfig(`${top.join('')}${options.yaml ?? ''}`, 'test.yaml', options.env ?? {});
  const { log, lines, texts } = captureLog();
  const shutdown = detachedShutdown(log);
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
