// A webhook receiver on loopback for the notification tests: records each POST (headers, body as
// text and as JSON) and answers with the status the test sets (200 unless told otherwise).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfter } from './close-after.js';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown>;
}

export interface WebhookReceiver {
  /** The base URL; any path under it is recorded. */
  url: string;
  received: ReceivedHook[];
  /** The status every later request is answered with. */
  answerWith(status: number): void;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // Recorded as text: the test says what it expected.
      }
      received.push({ path: request.url ?? '/', headers: request.headers, text, json });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfter(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answerWith(next) {
      status = next;
    },
  };
}
