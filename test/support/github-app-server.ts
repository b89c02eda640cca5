// The two GitHub endpoints a GitHub App's work goes through, on 127.0.0.1, port 0, under /api/v3 (as
// on GitHub Enterprise Server), answering as GitHub documents them, and recording every call:
//   POST /app/installations/{id}/access_tokens: `Authorization: Bearer <JWT>`, the JWT VERIFIED: RS256
//        with the app's public key, iss = the app id, iat not in the future, exp after now, at most
//        10 minutes after iat and after now; 401 for a JWT that fails any of these, 404 for an
//        installation the app does not have; else 201 { token, expires_at } with a lifetime the test
//        chooses, so that renewal shows in a short test.
//   POST /repos/{owner}/{repo}/statuses/{sha}: taken (201) only with an installation token minted
//        here that has not expired; 401 "Bad credentials" otherwise.
// Its clock (`now`) is the test's, so that a test moves time for the client and the server alike.
import { createPublicKey, createVerify, type KeyObject, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfter } from './close-after.js';

export interface GitHubAppCall {
  kind: 'access-token' | 'status';
  /** The installation id (access tokens) or `owner/name` (statuses). */
  target: string;
  /** Why a call was refused, in the server's words (a test reads it to see which rule failed). */
  refused?: string;
  /** The installation token a status call carried. */
  token?: string | undefined;
  status: number;
}

export interface GitHubAppServerOptions {
  appId: string;
  /** The app's key: its public half checks every JWT. */
  key: KeyObject;
  /** The installations of the app. */
  installations: readonly string[];
  /** How long each installation token lives, in ms; GitHub's hour when not given. */
  tokenLifetimeMs?: number;
  /** The server's clock, in ms since the epoch. */
  now?: () => number;
}

export interface GitHubAppServer {
  apiUrl: string;
  calls: GitHubAppCall[];
  /** Every installation token handed out, in order. */
  minted: string[];
  /** Whether `token` was minted here and has not expired. */
  isCurrent(token: string): boolean;
  /** Answers the next `count` token requests with `status` (a 5xx) before minting again. */
  failNext(count: number, status: number): void;
}

const TOKEN_PATH = /^\/api\/v3\/app\/installations\/([^/]+)\/access_tokens$/;
const STATUS_PATH = /^\/api\/v3\/repos\/([^/]+\/[^/]+)\/statuses\/([0-9a-f]{40})$/;
const HOUR_MS = 60 * 60_000;

export async function startGitHubAppServer(options: GitHubAppServerOptions): Promise<GitHubAppServer> {
  const now = options.now ?? Date.now;
  const publicKey = createPublicKey(options.key);
  const calls: GitHubAppCall[] = [];
  const minted: string[] = [];
  const expiry = new Map<string, number>();
  let failures = { count: 0, status: 500 };
  let statusId = 1;
  const isCurrent = (token: string) => (expiry.get(token) ?? 0) > now();

  function accessToken(installation: string, authorization: string | undefined): [number, unknown] {
    const refused = jwtProblem(authorization, publicKey, options.appId, Math.floor(now() / 1000));
    if (refused !== undefined) {
      calls.push({ kind: 'access-token', target: installation, refused, status: 401 });
      return [401, { message: refused, documentation_url: 'https://docs.github.com/rest' }];
    }
    if (failures.count > 0) {
      failures = { ...failures, count: failures.count - 1 };
      calls.push({ kind: 'access-token', target: installation, status: failures.status });
      return [failures.status, { message: 'Server Error' }];
    }
    if (!options.installations.includes(installation)) {
      calls.push({ kind: 'access-token', target: installation, status: 404 });
      return [404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/apps' }];
    }
    const token = `ghs_${randomBytes(18).toString('base64url')}`;
    const expiresAt = now() + (options.tokenLifetimeMs ?? HOUR_MS);
    minted.push(token);
    expiry.set(token, expiresAt);
    calls.push({ kind: 'access-token', target: installation, status: 201 });
    // GitHub writes expires_at to the second.
    const written = `${new Date(expiresAt).toISOString().slice(0, 19)}Z`;
    return [
      201,
      { token, expires_at: written, permissions: { statuses: 'write' }, repository_selection: 'all' },
    ];
  }

  function postStatus(repo: string, authorization: string | undefined, body: unknown): [number, unknown] {
    const token = /^(?:Bearer|token) (.+)$/.exec(authorization ?? '')?.[1];
    const status = token !== undefined && isCurrent(token) ? 201 : 401;
    calls.push({ kind: 'status', target: repo, token, status });
    if (status === 401) return [401, { message: 'Bad credentials' }];
    const fields = body as { state?: unknown; context?: unknown };
    statusId += 1;
    return [201, { id: statusId - 1, state: fields.state, context: fields.context ?? 'default' }];
  }

  const server = createServer((request, response) => {
    void readBody(request).then((body) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const { authorization } = request.headers;
      const tokenPath = TOKEN_PATH.exec(path);
      const statusPath = STATUS_PATH.exec(path);
      let [status, answer]: [number, unknown] = [404, { message: 'Not Found' }];
      if (request.method === 'POST' && tokenPath !== null)
        [status, answer] = accessToken(decodeURIComponent(tokenPath[1] ?? ''), authorization);
      else if (request.method === 'POST' && statusPath !== null)
        [status, answer] = postStatus(statusPath[1] ?? '', authorization, body);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfter(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`,
    calls,
    minted,
    isCurrent,
    failNext(count, status) {
      failures = { count, status };
    },
  };
}

/** What GitHub would refuse in this JWT, or undefined: its documented rules for an app's JWT. */
function jwtProblem(
  authorization: string | undefined,
  publicKey: KeyObject,
  appId: string,
  nowSeconds: number,
): string | undefined {
  const jwt = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  const [header, payload, signature, ...rest] = jwt?.split('.') ?? [];
  if (header === undefined || payload === undefined || signature === undefined || rest.length > 0)
    return 'A JSON web token could not be decoded';
  const verified = createVerify('RSA-SHA256')
    .update(`${header}.${payload}`)
    .verify(publicKey, Buffer.from(signature, 'base64url'));
  if (!verified) return "A JSON web token could not be decoded: the signature does not match the app's key";
  const head = decode(header) as { alg?: unknown };
  if (head.alg !== 'RS256') return "'alg' must be RS256";
  const claims = decode(payload) as { iat?: unknown; exp?: unknown; iss?: unknown };
  const { iat, exp } = claims;
  if (String(claims.iss) !== appId) return `'Issuer' claim ('iss') must be the app id ${appId}`;
  if (typeof iat !== 'number' || iat > nowSeconds)
    return "'Issued at' claim ('iat') must be an Integer representing a time in the past";
  if (typeof exp !== 'number' || exp <= nowSeconds) return "'Expiration time' claim ('exp') is in the past";
  if (exp - iat > 600 || exp > nowSeconds + 600)
    return "'Expiration time' claim ('exp') is too far in the future";
  return undefined;
}

function decode(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return {};
  }
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return {};
  }
}
