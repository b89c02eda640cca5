// What `docsync doctor` finds about the Redis of a `redis:` section, as its first finding.
import { parseConfig } from '../../src/config/load-config.js';
import { CheckRunner } from '../../src/doctor/check-runner.js';
import { nameSource } from '../../src/doctor/config-sources.js';
import type { Finding } from '../../src/doctor/doctor-finding.js';
import { checkRedis } from '../../src/doctor/redis-checks.js';

export async function doctorRedisFinding(redisSection: string): Promise<Finding | undefined> {
  const config = parseConfig(`redis:\n${redisSection}`, 'doctor.yaml', {});
  const findings = await checkRedis({
    config,
    runner: new CheckRunner({ timeoutMs: 5000, concurrency: 1 }),
    names: nameSource({}),
    cwd: '/',
    env: {},
  });
  return findings[0];
}
