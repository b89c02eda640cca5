// A pass-through HTTP proxy in front of the local service that keeps every answer as sent (status
// and JSON body), so that tests driving docsync's client can still check each raw answer against the
// public document: the client hands back parsed records, not what the service said.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfter } from './close-after.js';

export interface RecordedAnswer {
  method: string;
  /** The address called, below the origin: `/v1/orgs/org_1/sites?limit=5`. */
  url: string;
  /** The request's JSON body; undefined when it sent none. */
  sent: unknown;
  status: number;
  /** Parsed JSON; undefined when the answer had no body. */
  body: unknown;
}

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>/v1`: give it to docsync's client as its base URL. */
  baseUrl: string;
  /** Every answer since the start or the last `take()`. */
  answers: RecordedAnswer[];
  /** The answers recorded so far, and forgets them. */
  take(): RecordedAnswer[];
}

const FORWARDED_HEADERS = ['authorization', 'content-type', 'accept', 'user-agent'];

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startRecordingProxy(targetOrigin: string): Promise<RecordingProxy> {
  const answers: RecordedAnswer[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const method = request.method ?? 'GET';
      const url = request.url ?? '/';
      const sent = await bodyOf(request);
      const headers: Record<string, string> = {};
      for (const name of FORWARDED_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const answer = await fetch(`${targetOrigin}${url}`, {
        method,
        headers,
        ...(sent.length === 0 ? {} : { body: sent }),
      });
      const text = await answer.text();
      answers.push({
        method,
        url,
        sent: sent.length === 0 ? undefined : JSON.parse(sent.toString('utf8')),
        status: answer.status,
        body: text === '' ? undefined : JSON.parse(text),
      });
      const passed: Record<string, string> = {};
      for (const name of ['content-type', 'retry-after', 'location']) {
        const value = answer.headers.get(name);
        if (value !== null) passed[name] = value;
      }
      response.writeHead(answer.status, passed);
      response.end(text === '' ? undefined : text);
    })().catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`recording proxy: ${String(error)}`);
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
    baseUrl: `http://127.0.0.1:${port}/v1`,
    answers,
    take: () => answers.splice(0, answers.length),
  };
}
