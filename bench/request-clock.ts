// A pass-through proxy in front of the local service that notes when a request reaches it, for a
// benchmark whose service runs in a process of its own (whose routes it cannot hook): docsync is
// given the proxy's base URL, and `next` resolves at the arrival of the next matching request.
import { EventEmitter } from 'node:events';
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RequestClock {
  /** The service's base URL through the proxy (same path, the proxy's origin). */
  baseUrl: string;
  /** When (ms since the epoch) the next `method` request whose path (no query) `matches` arrives. */
  next(method: string, matches: (path: string) => boolean): Promise<number>;
  stop(): Promise<void>;
}

export async function startRequestClock(serviceBaseUrl: string): Promise<RequestClock> {
  const target = new URL(serviceBaseUrl);
  const arrivals = new EventEmitter();
  arrivals.setMaxListeners(0);
  const server = createServer((incoming, outgoing) => {
    arrivals.emit('request', incoming.method ?? '', incoming.url ?? '', Date.now());
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    next: (method, matches) =>
      new Promise<number>((resolve) => {
        const listener = (seen: string, url: string, at: number) => {
          if (seen !== method || !matches(url.split('?')[0] ?? '')) return;
          arrivals.off('request', listener);
          resolve(at);
        };
        arrivals.on('request', listener);
      }),
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
