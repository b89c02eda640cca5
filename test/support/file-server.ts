// A small HTTP server on 127.0.0.1, port 0, serving bytes the test puts at paths: the "somewhere
// on the internet" that content imports fetch from. Closed after the file (or the test that made it).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfter } from './close-after.js';

export interface FileServer {
  origin: string;
  /** Serves `body` at `path` (such as `/docs.zip`) from now on; returns its address. */
  put(path: string, body: Buffer | string, contentType?: string): string;
  /** Requests received per path, to prove the emulator fetched (or did not fetch) an address. */
  hits(path: string): number;
  /** Answers requests for `path` with `handler`, for answers `put` cannot give (304, 500, a sequence). */
  route(path: string, handler: RouteHandler): string;
}

export type RouteHandler = (request: IncomingMessage) => {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
};

export async function startFileServer(): Promise<FileServer> {
  const files = new Map<string, { body: Buffer; contentType: string }>();
  const hits = new Map<string, number>();
  const routes = new Map<string, RouteHandler>();
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path);
    if (handler !== undefined) {
      const answer = handler(request);
      response.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? '');
      return;
    }
    const file = files.get(path);
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    response
      .writeHead(200, { 'content-type': file.contentType, 'content-length': String(file.body.length) })
      .end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfter(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    put(path, body, contentType = 'application/octet-stream') {
      files.set(path, { body: typeof body === 'string' ? Buffer.from(body) : body, contentType });
      return `${origin}${path}`;
    },
    hits: (path) => hits.get(path) ?? 0,
    route(path, handler) {
      routes.set(path, handler);
      return `${origin}${path}`;
    },
  };
}

/** A loopback port nothing listens on: taken, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
