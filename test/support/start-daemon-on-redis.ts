// Starts docsync's daemon in the test process like start-test-daemon.ts, but on a Redis the test
// describes itself (a Cluster, a Sentinel set, a TLS server): the `redis:` section is given whole.
import { parseConfig } from '../../src/config/load-config.js';
import { startDaemon } from '../../src/daemon/start-daemon.js';
import type { AnyJobDefinition } from '../../src/queue/job-definition.js';
import { closeAfter } from './close-after.js';
import { detachedShutdown } from './detached-shutdown.js';
import type { TestDaemon } from './start-test-daemon.js';
import type { TestEmulator } from './start-test-emulator.js';
import { captureLog, tempDir } from './test-context.js';

export async function startDaemonOnRedis(options: {
  /** The `redis:` section, indented under it: `  cluster:\n    nodes: [...]\n  prefix: "{x}"\n`. */
  redis: string;
  /** More of the config, after the http section. */
  yaml?: string;
  jobs?: readonly AnyJobDefinition[];
  service?: TestEmulator;
}): Promise<TestDaemon> {
  const { service } = options;
  const top = [
    `redis:\n${options.redis}`,
    `dataDir: ${await tempDir('daemon-data')}\n`,
    service === undefined
      ? ''
      : `service: { baseUrl: "${service.baseUrl}", token: ${service.tokens.admin} }\n`,
    'http:\n  listen: 127.0.0.1:0\n',
  ];
  const config = parseConfig(`${top.join('')}${options.yaml ?? ''}`, 'test.yaml', {});
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
