// `docsync resume <mapping>`: lifts the pause set when a branch's history was rewritten, once a
// person has looked, and polls the mapping at once. It talks to the Redis the daemon uses: the
// configured one, or the embedded one of a docsync running in the same data folder.
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { createLogger } from '../log/create-logger.js';
import { resumeMapping } from '../producers/resume-mapping.js';
import { Queues } from '../queue/queues.js';
import { runningEmbeddedRedis } from '../redis/embedded-redis-server.js';
import { RedisConnections } from '../redis/redis-connections.js';
import { readRedisTarget } from '../redis/redis-target.js';
import { waitUntilReady } from '../redis/wait-until-ready.js';
import { RedisMappingStateStore } from '../state/redis-mapping-state-store.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';
import { lookUpMapping, settleLookup } from './find-mapping.js';
import { readCliConfig } from './read-cli-config.js';

export async function resumeCommand(
  mappingName: string,
  flags: { config?: string },
  io: CliIo,
): Promise<number> {
  const file = flags.config ?? io.env.DOCSYNC_CONFIG;
  if (file === undefined) {
    // The demo's mapping lives as long as its process: there is nothing to resume from outside.
    io.stderr.write('docsync resume: give the configuration with --config <file> or DOCSYNC_CONFIG\n');
    return EXIT.invalid;
  }
  const config = await readCliConfig(file, io);
  if (config === undefined) return EXIT.invalid;
  const lookup = lookUpMapping(config, mappingName, file);
  if ('problem' in lookup) {
    io.stderr.write(`docsync resume: ${lookup.problem}\n`);
    return EXIT.invalid;
  }
  const embeddedUrl = async () => {
    const url = await runningEmbeddedRedis(join(resolve(io.cwd, config.dataDir), 'redis'));
    return url === undefined ? undefined : { url };
  };
  const target = (await readRedisTarget(config.redis, io.cwd)) ?? (await embeddedUrl());
  if (target === undefined) {
    io.stderr.write(
      `docsync resume: no running docsync keeps its Redis in ${config.dataDir}: start docsync, or set REDIS_URL to the Redis it uses\n`,
    );
    return EXIT.invalid;
  }
  const log = createLogger({ level: 'warn', destination: pino.destination({ dest: 2, sync: true }) });
  const redis = new RedisConnections(target, log);
  const queues = new Queues(redis.producer(), config, log);
  try {
    await waitUntilReady(redis.producer(), redis.description, 5000);
    const settled = await settleLookup(config, mappingName, lookup, redis.producer());
    if ('problem' in settled) {
      io.stderr.write(`docsync resume: ${settled.problem}\n`);
      return EXIT.invalid;
    }
    const state = new RedisMappingStateStore(redis.producer(), config.redis.prefix);
    const before = await resumeMapping(state, queues.get('import'), mappingName, () => new Date());
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
