// `docsync resume <mapping>`: lifts the pause set when a branch's history was rewritten, once a
// person has looked, and polls the mapping at once. It talks to the Redis the daemon uses: the
// configured one, or the embedded one of a docsync running in the same data folder.
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import type { Config } from '../config/config-schema.js';
import { loadConfig } from '../config/load-config.js';
import { ConfigError } from '../errors/config-error.js';
import { createLogger } from '../log/create-logger.js';
import { DEMO_CONFIG } from '../package-info.js';
import { pollNow } from '../producers/git-poll-schedulers.js';
import { Queues } from '../queue/queues.js';
import { runningEmbeddedRedis } from '../redis/embedded-redis-server.js';
import { RedisConnections } from '../redis/redis-connections.js';
import { waitUntilReady } from '../redis/wait-until-ready.js';
import { RedisMappingStateStore } from '../state/redis-mapping-state-store.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { writeConfigError } from './validate-config-command.js';

export async function resumeCommand(
  mappingName: string,
  flags: { config?: string },
  io: CliIo,
): Promise<number> {
  const file = flags.config ?? io.env.DOCSYNC_CONFIG ?? DEMO_CONFIG;
  let config: Config;
  try {
    config = await loadConfig(resolve(io.cwd, file), io.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    writeConfigError(error, file, io);
    return EXIT.invalid;
  }
  if (!config.mappings.some((mapping) => mapping.name === mappingName)) {
    io.stderr.write(`docsync resume: no mapping named ${mappingName} in ${file}\n`);
    return EXIT.invalid;
  }
  const url =
    config.redis.url ??
    (config.redis.cluster === undefined
      ? await runningEmbeddedRedis(join(resolve(io.cwd, config.dataDir), 'redis'))
      : undefined);
  if (url === undefined && config.redis.cluster === undefined) {
    io.stderr.write(
      `docsync resume: no running docsync keeps its Redis in ${config.dataDir}: start docsync, or set REDIS_URL to the Redis it uses\n`,
    );
    return EXIT.invalid;
  }
  const log = createLogger({ level: 'warn', destination: pino.destination({ dest: 2, sync: true }) });
  const redis = new RedisConnections(
    url === undefined ? { clusterNodes: config.redis.cluster?.nodes ?? [] } : { url },
    log,
  );
  const queues = new Queues(redis.producer(), config, log);
  try {
    await waitUntilReady(redis.producer(), redis.description, 5000);
    const state = new RedisMappingStateStore(redis.producer(), config.redis.prefix);
    const before = await state.get(mappingName);
    await state.update(mappingName, { paused: null });
    await pollNow(queues.get('import'), mappingName, `resume-${Date.now()}`);
    io.stdout.write(
      before.paused === undefined
        ? `${mappingName} was not paused; polled it now\n`
        : `${mappingName} resumed (was paused: ${before.paused.detail}); polling it now\n`,
    );
    return EXIT.ok;
  } finally {
    await queues.close();
    await redis.close();
  }
}
