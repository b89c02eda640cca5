// Starts docsync's daemon in the test process like start-test-daemon.ts, but on a Redis the test
// describes itself (a Cluster, a Sentinel set, a TLS server): the `redis:` section is given whole.
import type { AnyJobDefinition } from '../../src/queue/job-definition.js';
import { startTestDaemon, type TestDaemon } from './start-test-daemon.js';
import type { TestEmulator } from './start-test-emulator.js';
import { tempDir } from './test-context.js';

export async function startDaemonOnRedis(options: {
  /** The `redis:` section, indented under it: `  cluster:\n    nodes: [...]\n  prefix: "{x}"\n`. */
  redis: string;
  /** More of the config, after the http section. */
  yaml?: string;
  jobs?: readonly AnyJobDefinition[];
  service?: TestEmulator;
}): Promise<TestDaemon> {
  // The prefix is the redis section's own.
  return startTestDaemon({ ...options, prefix: '', dataDir: await tempDir('daemon-data') });
}
