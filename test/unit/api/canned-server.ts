// A real HTTP server on 127.0.0.1, port 0, answering each request with the test's handler and
// recording what arrived, so that the client is tested over real sockets without the service.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach } from 'vitest';

export interface RecordedRequest {
  method: string;
  /** Path and query as sent: `/v1/spaces/s1?limit=10`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** `index` counts requests from 0. */
export type CannedHandler = (request: RecordedRequest, response: ServerResponse, index: number) => void;

export interface CannedServer {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Stops accepting connections and drops the open ones. */
  close(): Promise<void>;
}

const perTest = new Set<CannedServer>();
const perFile = new Set<CannedServer>();

afterEach(() => closeAll(perTest));
afterAll(() => closeAll(perFile));

async function closeAll(servers: Set<CannedServer>): Promise<void> {
  await Promise.all([...servers].map((server) => server.close()));
}

/** Closed after the test that started it, or after the file with `{ shared: true }`. */
export async function startCannedServer(
  handler: CannedHandler,
  options: { shared?: boolean } = {},
): Promise<CannedServer> {
  const open = options.shared === true ? perFile : perTest;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      handler(recorded, res, requests.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const canned: CannedServer = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close() {
      closing ??= new Promise<void>((resolve) => {
        perTest.delete(canned);
        perFile.delete(canned);
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
  open.add(canned);
  return canned;
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** The service's documented error body. */
export function sendError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(response, status, { error: { code: status, message } }, headers);
}

/** What a proxy or load balancer in front of the service sends when it fails: HTML, status 200. */
export function sendHtmlPage(response: ServerResponse): void {
  const text = '<!DOCTYPE html><html><head><title>Error</title></head><body>Bad gateway</body></html>';
  response.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
