// The local service's own log of the requests it answered, for tests that judge several docsync
// processes by what the service saw: how many lists a poll made, which process wrote to a space and
// when. Each process is given a door of its own (a loopback port whose connections the service's
// server takes as its own), so every request is known by the process that sent it. It can slow
// down docsync's writes, so that two writes in flight at once cannot slip between two looks, and
// hold one request before the service acts on it, so that a job stays mid-way while a test kills
// its process.
import { createServer, type Server, type Socket } from 'node:net';
import type { Emulator } from '../../src/emulator/create-emulator.js';
import { closeAfter } from './close-after.js';
import {
  type StartTestEmulatorOptions,
  startTestEmulator,
  type TestEmulator,
} from './start-test-emulator.js';

export interface LoggedRequest {
  /** `METHOD pattern`, such as `POST /v1/spaces/:s/change-requests/:cr/merge`. */
  route: string;
  /** The space (`:s`) or organization (`:o`) and spec (`:slug`) in the path, when it names one. */
  space?: string;
  org?: string;
  slug?: string;
  /** The bearer token it came with: docsync's, or the test's own calls as a reviewer. */
  token: string;
  /** The door it came through (the process that sent it); undefined for the main address. */
  door?: number;
  status: number;
  /** When the service received it and when it answered, in ms since the epoch. */
  start: number;
  end: number;
}

export interface HeldRequest {
  route: string;
  space?: string;
  door?: number;
  /** Answers it 503 without acting on it: whoever sent it is gone, the service did nothing. */
  drop(): void;
}

export interface LoggedService {
  service: TestEmulator;
  /** Every `/v1` request answered so far, in the order the answers went out. */
  requests: LoggedRequest[];
  /** `http://127.0.0.1:<port>/v1`: the base URL to give to the process of door `door`. */
  doorUrl(door: number): string;
  /** The requests of `route` with docsync's token (the admin's) received since `since`. */
  count(route: string, since?: number): number;
  /**
   * Holds the next request of `route` with docsync's token before the service acts on it; resolves
   * once one arrived. It stays held until dropped, or until the service closes.
   */
  holdNext(route: string): Promise<HeldRequest>;
}

export interface LoggedServiceOptions extends Omit<StartTestEmulatorOptions, 'prepare'> {
  doors: number;
  /** Added before the service acts on each of docsync's writes (POST, PUT, PATCH), in ms. */
  writeDelayMs?: number;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

interface Hold {
  route: string;
  arrived: (held: HeldRequest) => void;
}

export async function startLoggedService(options: LoggedServiceOptions): Promise<LoggedService> {
  const requests: LoggedRequest[] = [];
  const holds: Hold[] = [];
  const held = new Set<() => void>();
  const doorOf = new WeakMap<Socket, number>();
  let admin = '';
  const tokenOf = (header: string | undefined) => (header?.startsWith('Bearer ') ? header.slice(7) : '');
  const prepare = (emulator: Emulator) => {
    // After the service's own hook (authentication, injected faults): a refused request is never held.
    emulator.app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/v1/') || tokenOf(request.headers.authorization) !== admin) return;
      const route = `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`;
      const index = holds.findIndex((hold) => hold.route === route);
      if (index !== -1) {
        const [hold] = holds.splice(index, 1);
        const { s } = request.params as { s?: string };
        const door = doorOf.get(request.socket);
        await new Promise<void>((resolve) => {
          held.add(resolve);
          hold?.arrived({
            route,
            ...(s === undefined ? {} : { space: s }),
            ...(door === undefined ? {} : { door }),
            drop: resolve,
          });
        });
        return reply
          .code(503)
          .send({ error: { code: 503, message: 'dropped by the test: its sender is gone' } });
      }
      if (WRITES.has(request.method) && (options.writeDelayMs ?? 0) > 0)
        await new Promise((resolve) => setTimeout(resolve, options.writeDelayMs));
      return undefined;
    });
    emulator.app.addHook('onResponse', async (request, reply) => {
      if (!request.url.startsWith('/v1/')) return;
      const { s, o, slug } = request.params as { s?: string; o?: string; slug?: string };
      const door = doorOf.get(request.socket);
      const end = Date.now();
      requests.push({
        route: `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
        ...(s === undefined ? {} : { space: s }),
        ...(o === undefined ? {} : { org: o }),
        ...(slug === undefined ? {} : { slug }),
        token: tokenOf(request.headers.authorization),
        ...(door === undefined ? {} : { door }),
        status: reply.statusCode,
        start: end - reply.elapsedTime,
        end,
      });
    });
    // A request still held would keep the service's close waiting for it.
    emulator.app.addHook('preClose', async () => {
      for (const drop of held) drop();
    });
  };
  const service = await startTestEmulator({ ...options, prepare });
  admin = service.tokens.admin;
  const doors: string[] = [];
  for (let door = 0; door < options.doors; door += 1) {
    // The service's own HTTP server takes each connection: same routes, same state, one more port.
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => {
      doorOf.set(socket, door);
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      service.emulator.app.server.emit('connection', socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeAfter(
      () =>
        new Promise((resolve) => {
          server.close(resolve);
          for (const socket of sockets) socket.destroy();
        }),
    );
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('a door without a port');
    doors.push(`http://127.0.0.1:${address.port}/v1`);
  }
  return {
    service,
    requests,
    doorUrl: (door) => {
      const url = doors[door];
      if (url === undefined) throw new Error(`no door ${door}`);
      return url;
    },
    count: (route, since = 0) =>
      requests.filter(
        (request) => request.route === route && request.token === admin && request.start >= since,
      ).length,
    holdNext: (route) => new Promise((arrived) => holds.push({ route, arrived })),
  };
}

/** The most requests the service received within any span of `perMs`, of those through a door. */
export function busiestWindow(service: LoggedService, perMs: number): number {
  const starts = service.requests
    .filter((request) => request.door !== undefined)
    .map((request) => request.start)
    .sort((a, b) => a - b);
  let most = 0;
  for (let first = 0, last = 0; last < starts.length; last += 1) {
    while ((starts[last] ?? 0) - (starts[first] ?? 0) >= perMs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}
