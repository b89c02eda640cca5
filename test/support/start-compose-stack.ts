// Runs docker-compose.yml without Docker: each service's command, with its environment, as a local
// process, in the order of depends_on (a `service_healthy` dependency waits for the service's own
// healthcheck command to pass). What only exists inside containers is mapped onto this machine:
//
// - a service's hostname and port (redis:6379, docs-service:8790) becomes 127.0.0.1 and a free port,
//   and a service listening on all interfaces listens on 127.0.0.1 instead;
// - a service built from the Dockerfile runs the Dockerfile's ENTRYPOINT with the image's ENV, its
//   files (dist/, config/) being this checkout's, its working folder (WORKDIR) a temp folder;
// - a volume is a folder: a named one a temp folder, a bind mount the folder it names;
// - the redis image's own defaults (port 6379 on all interfaces, working folder /data) are given
//   to redis-server and redis-cli explicitly.
//
// Every process started is stopped by `stop()`, or killed after the test.
import { mkdir, symlink } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { type CliRun, cliEnv, startCli } from './cli-process.js';
import { freePort } from './free-port.js';
import type { ComposeFile, ComposeService } from './read-compose-file.js';
import type { DockerfileStage } from './read-dockerfile.js';
import { tempDir } from './test-context.js';
import { waitFor } from './wait-for.js';

export interface ComposeStackOptions {
  compose: ComposeFile;
  dockerfile: DockerfileStage;
  /** The folder docker-compose.yml is in: build contexts and bind mounts are relative to it. */
  root: string;
  /** How long a `service_healthy` dependency may take. */
  healthyWithinMs?: number;
}

export interface LocalService {
  name: string;
  run: CliRun;
  /** The program and arguments it was started with, after mapping. */
  argv: string[];
  env: Record<string, string>;
  /** Its container ports and the local ports standing in for them. */
  ports: ReadonlyMap<number, number>;
}

export interface ComposeStack {
  services: ReadonlyMap<string, LocalService>;
  /** SIGTERM to each service, dependents first (as `docker compose down`), and their exits. */
  stop(): Promise<Map<string, { code: number | null; signal: NodeJS.Signals | null }>>;
}

const REDIS_PORT = 6379;
const REDIS_WORKDIR = '/data';
const LOOPBACK = '127.0.0.1';

export async function startComposeStack(options: ComposeStackOptions): Promise<ComposeStack> {
  const { compose } = options;
  const names = startOrder(compose);
  const ports = new Map<string, Map<number, number>>();
  for (const name of names) {
    const service = compose.services[name] as ComposeService;
    const mapped = new Map<number, number>();
    for (const port of containerPorts(service)) mapped.set(port, await freePort());
    ports.set(name, mapped);
  }
  const volumes = new Map<string, string>();
  const started = new Map<string, LocalService>();
  for (const name of names) {
    const service = compose.services[name] as ComposeService;
    for (const [dependency, condition] of dependencies(service)) {
      if (condition === 'service_healthy')
        await waitHealthy(started.get(dependency) as LocalService, options);
    }
    const local = await startService(name, service, { ...options, ports, volumes });
    started.set(name, local);
  }
  return {
    services: started,
    async stop() {
      const exits = new Map<string, { code: number | null; signal: NodeJS.Signals | null }>();
      for (const name of [...names].reverse()) {
        const local = started.get(name) as LocalService;
        if (local.run.child.exitCode === null && local.run.child.signalCode === null)
          local.run.child.kill('SIGTERM');
        exits.set(name, await local.run.exited);
      }
      return exits;
    },
  };
}

interface Mapping extends ComposeStackOptions {
  ports: ReadonlyMap<string, ReadonlyMap<number, number>>;
  /** Named volumes, made once and shared like Docker's. */
  volumes: Map<string, string>;
}

async function startService(name: string, service: ComposeService, mapping: Mapping): Promise<LocalService> {
  const own = mapping.ports.get(name) as ReadonlyMap<number, number>;
  const built = service.build !== undefined;
  const workdir = built ? mapping.dockerfile.workdir : REDIS_WORKDIR;
  // The container's working folder, with its volumes linked in where they are mounted.
  const cwd = await tempDir(`compose-${name}`);
  const mounts: Array<[string, string]> = [[workdir, cwd]];
  for (const volume of service.volumes ?? []) {
    const [source = '', target = ''] = volume.split(':');
    const local = await volumeFolder(source, mapping);
    mounts.push([target, local]);
    const inside = relative(workdir, target);
    if (inside === '') mounts[0] = [workdir, local];
    else if (!inside.startsWith('..')) {
      await mkdir(join(cwd, inside, '..'), { recursive: true });
      await symlink(local, join(cwd, inside));
    }
  }
  // Longest first: /app/.docsync before /app.
  mounts.sort((a, b) => b[0].length - a[0].length);
  const map = (text: string) => mapText(text, name, mounts, mapping.ports);

  let argv: string[];
  if (built) {
    if (service.entrypoint !== undefined) throw new Error(`${name}: an entrypoint override is not mapped`);
    const [program = '', script = '', ...rest] = mapping.dockerfile.entrypoint;
    if (program !== 'node') throw new Error(`the Dockerfile's ENTRYPOINT runs ${program}, not node`);
    argv = [
      process.execPath,
      resolve(mapping.root, script),
      ...rest,
      ...(service.command ?? mapping.dockerfile.cmd).map((arg) => mapArg(arg, own, map)),
    ];
  } else if (service.image?.startsWith('redis:') === true) {
    const [program = 'redis-server', ...args] = service.command ?? ['redis-server'];
    argv = [program, ...args.map((arg) => mapArg(arg, own, map)), '--port', String(own.get(REDIS_PORT))];
    argv.push('--bind', LOOPBACK);
  } else {
    throw new Error(`${name}: only services built from the Dockerfile and the redis image are mapped`);
  }
  const env = cliEnv({
    ...(built ? mapping.dockerfile.env : {}),
    ...Object.fromEntries(Object.entries(service.environment).map(([key, value]) => [key, map(value)])),
  });
  const [program, ...args] = argv as [string, ...string[]];
  const run = startCli(args, {
    command: [program],
    cwd: mounts.find(([at]) => at === workdir)?.[1] ?? cwd,
    env,
  });
  return { name, run, argv, env, ports: own };
}

async function volumeFolder(source: string, mapping: Mapping): Promise<string> {
  if (source.startsWith('.') || source.startsWith('/')) return resolve(mapping.root, source);
  let folder = mapping.volumes.get(source);
  if (folder === undefined) {
    folder = await tempDir(`compose-volume-${source}`);
    mapping.volumes.set(source, folder);
  }
  return folder;
}

/** A service's own listening address: all interfaces become loopback, its port the free one. */
function mapArg(arg: string, own: ReadonlyMap<number, number>, map: (text: string) => string): string {
  if (arg === '0.0.0.0') return LOOPBACK;
  const port = Number(arg);
  if (/^\d+$/.test(arg) && own.has(port)) return String(own.get(port));
  return map(arg);
}

function mapText(
  text: string,
  name: string,
  mounts: ReadonlyArray<[string, string]>,
  ports: ReadonlyMap<string, ReadonlyMap<number, number>>,
): string {
  let out = text;
  for (const [service, mapped] of ports) {
    for (const [port, local] of mapped) {
      const host =
        service === name
          ? `(?:${escapeRegExp(service)}|0\\.0\\.0\\.0|127\\.0\\.0\\.1|localhost)`
          : escapeRegExp(service);
      out = out.replace(new RegExp(`(?<![\\w.-])${host}:${port}(?!\\d)`, 'g'), `${LOOPBACK}:${local}`);
    }
  }
  for (const [target, local] of mounts)
    out = out.replace(new RegExp(`(?<![\\w.-])${escapeRegExp(target)}(?=/|$|[^\\w.-])`, 'g'), local);
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function containerPorts(service: ComposeService): Set<number> {
  const found = new Set<number>();
  if (service.image?.startsWith('redis:') === true) found.add(REDIS_PORT);
  for (const entry of service.expose ?? []) found.add(Number(entry));
  for (const entry of service.ports ?? []) found.add(Number(String(entry).split(':').at(-1)?.split('/')[0]));
  return found;
}

function dependencies(service: ComposeService): Array<[string, string]> {
  const given = service.depends_on ?? [];
  return Array.isArray(given)
    ? given.map((name) => [name, 'service_started'])
    : Object.entries(given).map(([name, spec]) => [name, spec.condition ?? 'service_started']);
}

/** Dependencies before dependents, as Compose starts them. */
function startOrder(compose: ComposeFile): string[] {
  const order: string[] = [];
  const visit = (name: string, path: readonly string[]) => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`depends_on cycle: ${[...path, name].join(' -> ')}`);
    const service = compose.services[name];
    if (service === undefined) throw new Error(`depends_on names no service ${name}`);
    for (const [dependency] of dependencies(service)) visit(dependency, [...path, name]);
    order.push(name);
  };
  for (const name of Object.keys(compose.services)) visit(name, []);
  return order;
}

/** Runs the service's healthcheck (`CMD` form), mapped like its command, until it passes. */
async function waitHealthy(local: LocalService, options: ComposeStackOptions): Promise<void> {
  const service = options.compose.services[local.name] as ComposeService;
  const [form, program = '', ...args] = service.healthcheck?.test ?? [];
  if (form !== 'CMD') throw new Error(`${local.name}: a service_healthy dependency needs a CMD healthcheck`);
  const mapPort = (text: string) => mapText(text, local.name, [], new Map([[local.name, local.ports]]));
  const argv =
    program === 'node'
      ? [process.execPath, ...args.map(mapPort)]
      : program === 'redis-cli'
        ? [program, '-p', String(local.ports.get(REDIS_PORT)), ...args]
        : undefined;
  if (argv === undefined) throw new Error(`${local.name}: a healthcheck running ${program} is not mapped`);
  const [command, ...rest] = argv as [string, ...string[]];
  await waitFor(
    async () => {
      if (local.run.child.exitCode !== null)
        throw new Error(`${local.name} exited (${local.run.child.exitCode}): ${local.run.stderr()}`);
      const check = startCli(rest, { command: [command], env: cliEnv() });
      return (await check.exited).code === 0;
    },
    `${local.name} to pass its healthcheck`,
    options.healthyWithinMs ?? 30_000,
  );
}
