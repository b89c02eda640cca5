// Git's own smart HTTP server for tests of private repositories: a node HTTP server on 127.0.0.1,
// port 0, that asks for Basic auth (401 with a challenge, as hosts do) and hands each authenticated
// request to `git http-backend` as a CGI program. A read-only token is refused (403) on
// git-receive-pack, as a host refuses a push without the right to it. At each request it records
// whether any process of the machine has a token in its argument list (/proc/<pid>/cmdline), while
// the git client that made the request (git-remote-http) still runs.
// Closed after the file (or the test that made it).
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfter } from './close-after.js';

export interface GitHttpServerOptions {
  /** The folder whose bare repositories are served: `<origin>/<name>.git` is `<root>/<name>.git`. */
  root: string;
  username: string;
  /** Tokens that may read and push. */
  tokens: readonly string[];
  /** Tokens that may read only. */
  readOnlyTokens?: readonly string[];
}

export interface GitHttpRequest {
  method: string;
  path: string;
  service: string | undefined;
  status: number;
  /** Whether the request carried a token the server knows (of either kind). */
  authenticated: boolean;
  /** Whether a process's argument list held one of the tokens when the request came. */
  tokenInArguments: boolean;
}

export interface GitHttpServer {
  origin: string;
  /** The URL of `<root>/<name>.git`. */
  url(name: string): string;
  requests: GitHttpRequest[];
}

export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  const requests: GitHttpRequest[] = [];
  const secrets = [...options.tokens, ...(options.readOnlyTokens ?? [])];
  const server = createServer((request, response) => {
    handle(request, response, options, secrets).then(
      (record) => requests.push(record),
      (error: unknown) => {
        if (!response.headersSent) response.writeHead(500);
        response.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfter(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, url: (name) => `${origin}/${name}.git`, requests };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  options: GitHttpServerOptions,
  secrets: readonly string[],
): Promise<GitHttpRequest> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const service =
    url.searchParams.get('service') ?? (url.pathname.match(/\/(git-[a-z-]+-pack)$/)?.[1] || undefined);
  const tokenInArguments = await argumentsHold(secrets);
  const token = basicToken(request.headers.authorization, options.username);
  const canWrite = token !== undefined && options.tokens.includes(token);
  const canRead = canWrite || (token !== undefined && (options.readOnlyTokens ?? []).includes(token));
  const record = (status: number): GitHttpRequest => ({
    method: request.method ?? 'GET',
    path: url.pathname,
    service,
    status,
    authenticated: canRead,
    tokenInArguments,
  });
  if (!canRead) {
    request.resume();
    response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('Unauthorized\n');
    return record(401);
  }
  if (service === 'git-receive-pack' && !canWrite) {
    request.resume();
    response.writeHead(403).end('Write access to repository not granted\n');
    return record(403);
  }
  return record(await runBackend(request, response, url, options));
}

/** The token of `Basic base64(user:token)` when the user is `username`. */
function basicToken(header: string | undefined, username: string): string | undefined {
  const [scheme, encoded] = (header ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic' || encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return decoded.slice(0, colon) === username ? decoded.slice(colon + 1) : undefined;
}

/** `git http-backend` answering one request: CGI variables in, its headers (Status: too) and body out. */
function runBackend(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  options: GitHttpServerOptions,
): Promise<number> {
  const backend = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: options.root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(url.pathname),
      REQUEST_METHOD: request.method ?? 'GET',
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      // Set only for an authenticated request: http-backend then serves receive-pack.
      REMOTE_USER: options.username,
      REMOTE_ADDR: '127.0.0.1',
      ...(request.headers['content-encoding'] === undefined
        ? {}
        : { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] }),
      ...(request.headers['git-protocol'] === undefined
        ? {}
        : { GIT_PROTOCOL: String(request.headers['git-protocol']) }),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  request.pipe(backend.stdin);
  return new Promise((resolve, reject) => {
    backend.once('error', reject);
    let head = Buffer.alloc(0);
    let status = 200;
    let started = false;
    backend.stdout.on('data', (chunk: Buffer) => {
      if (started) {
        response.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      response.writeHead(status, headers);
      started = true;
      response.write(head.subarray(end + 4));
    });
    backend.once('close', () => {
      if (!started) response.writeHead(502);
      response.end();
      resolve(status);
    });
  });
}

/** Whether any process's argument list holds one of `secrets`. */
async function argumentsHold(secrets: readonly string[]): Promise<boolean> {
  const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (secrets.some((secret) => cmdline.includes(secret))) return true;
  }
  return false;
}
