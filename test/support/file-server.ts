// A small HTTP server on 127.0.0.1, port 0, serving bytes the test puts at paths: the "somewhere
// on the internet" that content imports fetch from. Closed after the file (or the test that made it).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfter } from './close-after.js';

export interface FileServer {
  origin: string;
  /** Serves `body` at `path` (such as `/docs.zip`) from now on; returns its address. */
  put(path: string, body: Buffer | string, contentType?: string): string;
  /** Requests received per path, to prove the emulator fetched (or did not fetch) an address. */
  hits(path: string): number;
}

export async function startFileServer(): Promise<FileServer> {
  const files = new Map<string, { body: Buffer; contentType: string }>();
  const hits = new Map<string, number>();
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
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
