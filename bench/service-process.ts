// The local documentation service as a process of its own (`docsync emulator`), as a benchmark
// needs it: its CPU and heap are not docsync's, so docsync's figures are its own. It is reached
// over HTTP only: the API under /v1 as the admin, and its control routes (`/_emulator/requests`)
// for the requests it answered.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../src/package-info.js';

const BIN = join(PACKAGE_ROOT, 'src', 'cli', 'bin.ts');

/** The requests the service answered under /v1: their total, and how many of each method and route. */
export interface RequestCounts {
  total: number;
  counts: Record<string, number>;
}

export interface ServiceProcess {
  /** Such as http://127.0.0.1:41234/v1. */
  baseUrl: string;
  orgId: string;
  /** The admin's token. */
  token: string;
  /** One call as the admin: path under /v1; throws on an answer that is not 2xx. */
  call(method: string, path: string, body?: unknown): Promise<unknown>;
  createSpace(title: string): Promise<string>;
  /** The requests answered under /v1 since the last reset, by method and route. */
  requests(): Promise<RequestCounts>;
  resetRequests(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `docsync emulator` on a free loopback port with `token` as its admin. */
export async function startServiceProcess(token: string): Promise<ServiceProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', BIN, 'emulator', '--port', '0', '--token', token, '--log-level', 'warn'],
    { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const line = text.split('\n').find((candidate) => candidate.includes(' organization '));
      if (line !== undefined) resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`docsync emulator exited with ${code}`)));
  });
  const match = /(http\S+\/v1) organization (\S+)/.exec(first);
  if (match === null) throw new Error(`docsync emulator said: ${first}`);
  const [, baseUrl = '', orgId = ''] = match;
  const origin = new URL(baseUrl).origin;
  const send = async (method: string, url: string, body?: unknown): Promise<Response> => {
    const answer = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!answer.ok) throw new Error(`${method} ${url}: ${answer.status} ${await answer.text()}`);
    return answer;
  };
  const call = async (method: string, path: string, body?: unknown) =>
    (await send(method, `${baseUrl}${path}`, body)).json() as Promise<unknown>;
  return {
    baseUrl,
    orgId,
    token,
    call,
    createSpace: async (title) =>
      ((await call('POST', `/orgs/${orgId}/spaces`, { title })) as { id: string }).id,
    requests: async () =>
      (await (await send('GET', `${origin}/_emulator/requests`)).json()) as {
        total: number;
        counts: Record<string, number>;
      },
    async resetRequests() {
      await send('DELETE', `${origin}/_emulator/requests`);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
