// A Redis whose disk fills: its snapshot fails and, as `stop-writes-on-bgsave-error` holds, it
// answers every write (and PING) with MISCONF while reads still work. docsync shows itself failing
// where people and orchestrators look: /readyz in those words (not "redis does not answer"), the
// headline problem of /status and of the status page, and `docsync status`, which exits 1.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli-process.js';
import { closeAfter } from '../../support/close-after.js';
import { doctorRedisFinding } from '../../support/doctor-redis-finding.js';
import { startRedisProcess } from '../../support/redis-process.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { uniquePrefix } from '../../support/test-context.js';
import { tmpfsDir, tmpfsRefusal } from '../../support/tmpfs-mount.js';
import { waitFor } from '../../support/wait-for.js';

const REASON = 'redis refuses writes: disk full';
const refusal = await tmpfsRefusal();

describe.skipIf(refusal !== undefined)(
  `docsync on a Redis whose disk is full${refusal ? ` (skipped: ${refusal})` : ''}`,
  () => {
    it('shows itself failing in /readyz, /status, the status page, docsync status and docsync doctor', async () => {
      // A disk of 1 MiB, and a save point: a failed save then stops writes, as on a full volume.
      const disk = await tmpfsDir('redis-disk', { size: '1m' });
      const server = await startRedisProcess({
        label: 'disk-full',
        args: ['--dir', disk, '--save', '3600 1'],
      });
      const prefix = uniquePrefix('disk-full');
      const daemon = await startTestDaemon({
        prefix,
        redis: `  url: redis://127.0.0.1:${server.port}\n  prefix: ${prefix}\n`,
      });
      const address = daemon.httpAddress;
      expect((await fetch(`${address}/readyz`)).status).toBe(200);

      const redis = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
      closeAfter(() => redis.disconnect());
      // More than the disk holds, and random so that the snapshot cannot compress it.
      await redis.set('filler', randomBytes(2 * 1024 * 1024));
      await redis.bgsave();
      await waitFor(
        async () =>
          (await redis.info('persistence')).includes('rdb_last_bgsave_status:err') ? true : undefined,
        'the snapshot failed on the full disk',
      );
      await expect(redis.set('probe', '1')).rejects.toThrow(/^MISCONF/);

      const ready = await fetch(`${address}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ ok: false, reason: REASON });

      const status = (await (await fetch(`${address}/status`)).json()) as {
        summary: { problems: unknown[] };
      };
      expect(status.summary.problems[0]).toMatchObject({
        kind: 'redis',
        state: 'failing',
        code: 'REDIS_WRITES_REFUSED',
        message: REASON,
      });

      const page = await (await fetch(`${address}/`)).text();
      expect(page).toContain(`redis server is failing: REDIS_WRITES_REFUSED ${REASON}`);

      const cli = await runCli(['status', '--url', address]);
      expect(cli.stdout).toContain(`redis server is failing: REDIS_WRITES_REFUSED ${REASON}`);
      expect(cli.code).toBe(1);

      // docsync doctor (and the checks docsync start logs) names it too.
      expect(await doctorRedisFinding(`  url: redis://127.0.0.1:${server.port}\n`)).toMatchObject({
        status: 'fail',
        code: 'REDIS_WRITES_REFUSED',
        message: expect.stringContaining('answers but refuses writes: disk full'),
      });
      // Without save points the server stops without a last save, which the full disk would refuse.
      await redis.config('SET', 'save', '');
    });
  },
);
