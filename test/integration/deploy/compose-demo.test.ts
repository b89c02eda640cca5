// `docker compose up` as shipped, without Docker: each service of docker-compose.yml runs its command
// with its environment as a local process (test/support/start-compose-stack.ts maps hostnames, ports
// and volumes), and the demo reaches "merged" with nobody acting, as `npm start` does: docsync seeds
// the docs-service with a space, imports the demo repository into a change request the service
// fetches from docsync's public address, the reviewer approves, docsync merges it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { readComposeFile } from '../../support/read-compose-file.js';
import { readDockerfile } from '../../support/read-dockerfile.js';
import { type LocalService, startComposeStack } from '../../support/start-compose-stack.js';
import { waitFor } from '../../support/wait-for.js';

const COMPOSE_FILE = join(PACKAGE_ROOT, 'docker-compose.yml');
const DOCKERFILE = join(PACKAGE_ROOT, 'Dockerfile');
const MINUTE = 60_000;

interface DemoStatus {
  mappings: Array<{
    lastMerge?: { changeRequest: { number: number } };
    linkChecks: Array<{ target: string; broken: number }>;
  }>;
  openapi: Array<{ slug: string; version?: string }>;
  events: Array<{ summary: string }>;
}

/** Peak and current resident memory of a process, in MiB, from /proc. */
async function memoryOf(pid: number): Promise<{ peakMiB: number; rssMiB: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { peakMiB: Math.round(kib('VmHWM') / 1024), rssMiB: Math.round(kib('VmRSS') / 1024) };
}

describe('docker-compose.yml', () => {
  it('builds every service that is not Redis from the Dockerfile, whose image can run the embedded demo too', async () => {
    const compose = await readComposeFile(COMPOSE_FILE);
    const dockerfile = await readDockerfile(DOCKERFILE);
    expect(dockerfile.entrypoint).toEqual(['node', 'dist/bundle/bin.js']);
    // With no command, the image runs `start` with no configuration: the embedded demo, whose Redis
    // is a redis-server docsync starts from PATH.
    expect(dockerfile.cmd).toEqual(['start']);
    expect(dockerfile.runs.some((run) => /\bapt-get install\b.*\bredis-server\b/.test(run))).toBe(true);
    expect(dockerfile.workdir).toBe('/app');
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.image?.startsWith('redis:') === true) continue;
      expect(service.build, name).toBe('.');
      expect(service.entrypoint, name).toBeUndefined();
    }
  });

  it('runs your configuration instead of the demo when DOCSYNC_CONFIG is set in the shell, and only then', async () => {
    const plain = await readComposeFile(COMPOSE_FILE);
    expect(plain.services.docsync?.command).toEqual(['start']);
    expect(plain.services.docsync?.environment).not.toHaveProperty('DOCSYNC_CONFIG');
    const own = await readComposeFile(COMPOSE_FILE, { DOCSYNC_CONFIG: '/app/config/docsync.yaml' });
    expect(own.services.docsync?.environment.DOCSYNC_CONFIG).toBe('/app/config/docsync.yaml');
  });

  it(
    'runs the demo of npm start against the docs-service and the redis services, merged with nobody acting',
    async () => {
      const stack = await startComposeStack({
        compose: await readComposeFile(COMPOSE_FILE),
        dockerfile: await readDockerfile(DOCKERFILE),
        root: PACKAGE_ROOT,
      });
      const docsync = stack.services.get('docsync') as LocalService;
      const service = stack.services.get('docs-service') as LocalService;
      const redis = stack.services.get('redis') as LocalService;
      // The command and environment come from the file: docsync runs `start` against the mapped
      // services, and the service reaches docsync's bundles at its public address.
      expect(docsync.argv.slice(2)).toEqual(['start']);
      const docsyncPort = docsync.ports.get(8787) as number;
      expect(docsync.env.DOCSYNC_PUBLIC_URL).toBe(`http://127.0.0.1:${docsyncPort}`);
      expect(docsync.env.DOCSYNC_DEMO_SERVICE_URL).toBe(
        `http://127.0.0.1:${service.ports.get(8790) as number}/v1`,
      );
      expect(docsync.env.DOCSYNC_DEMO_REDIS_URL).toBe(`redis://127.0.0.1:${redis.ports.get(6379) as number}`);

      const ready = await docsync.run.waitForLog('demo ready', MINUTE);
      expect(ready.statusPage).toBe(`http://127.0.0.1:${docsyncPort}/`);
      const started = docsync.run.lines().find((line) => line.msg === 'demo service started');
      expect(started?.service).toBe(docsync.env.DOCSYNC_DEMO_SERVICE_URL);
      // docsync used the compose Redis, not one of its own.
      expect(docsync.run.lines().some((line) => line.msg === 'embedded redis-server started')).toBe(false);

      const token = docsync.env.DOCSYNC_HTTP_TOKEN as string;
      expect((await fetch(`${ready.statusPage as string}status`)).status).toBe(401);
      const status = async () =>
        (await (
          await fetch(`${ready.statusPage as string}status`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()) as DemoStatus;
      const merged = await waitFor(
        async () => {
          const now = await status();
          const number = now.mappings[0]?.lastMerge?.changeRequest.number;
          return number !== undefined &&
            now.events.some((event) => event.summary === `merged change request #${number}`) &&
            now.mappings[0]?.linkChecks.some((check) => check.target === 'main') &&
            now.openapi[0]?.version !== undefined
            ? now
            : undefined;
        },
        'the compose demo to merge, check links and upload the spec',
        2 * MINUTE,
      );
      expect(merged.mappings[0]?.linkChecks.every((check) => check.broken === 0)).toBe(true);
      expect(merged.openapi[0]?.slug).toBe('pets');
      expect(docsync.run.lines().some((line) => line.msg === 'demo reviewer approved a change request')).toBe(
        true,
      );
      // What deploy/kubernetes/ requests is checked against this, in kubernetes-manifests.test.ts.
      const memory = await memoryOf(docsync.run.child.pid as number);
      process.stderr.write(`compose demo: docsync resident memory ${JSON.stringify(memory)}\n`);
      expect(memory.peakMiB).toBeGreaterThan(0);

      // `docker compose down`: SIGTERM to each, docsync first; each stops cleanly.
      const exits = await stack.stop();
      expect(Object.fromEntries(exits)).toEqual({
        docsync: { code: 0, signal: null },
        'docs-service': { code: 0, signal: null },
        redis: { code: 0, signal: null },
      });
      expect(docsync.run.lines().at(-1)).toMatchObject({ msg: 'shutdown complete', exitCode: 0 });
      expect(docsync.run.lines().filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual(
        [],
      );
    },
    4 * MINUTE,
  );
});
