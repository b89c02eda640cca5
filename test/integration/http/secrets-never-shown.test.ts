// Credentials written into the URLs of a configuration (user information and secret query
// parameters) never show: not in the daemon's log, /status, the status page, `docsync status`, nor
// anywhere in Redis (failed jobs' reasons and stacks, state, events), even when every job fails.
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { statusCommand } from '../../../src/cli/status-command.js';
import { startFileServer } from '../../support/file-server.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const SECRETS = {
  gitPassword: 'git-password-9f2c1',
  gitToken: 'git-query-token-5d8e3',
  specToken: 'spec-query-token-a41b7',
  specSignature: 'spec-signature-c07d2',
  specPassword: 'spec-password-e66f0',
  specKey: 'spec-api-key-3b9a4',
};

interface StatusAnswer {
  mappings: Array<{ name: string; repo?: string; lastError?: { message: string } }>;
  openapi: Array<{ slug: string; source?: string; lastRefresh?: { result: string } }>;
  failures: Array<{ name: string; failedReason: string }>;
}

describe('secrets in configured URLs', () => {
  it('never show in logs, /status, the status page, docsync status or Redis when jobs fail', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator);
    const dir = await tempDir('secrets');
    // Answers every request with a refusal that echoes the address it was asked for.
    const server = await startFileServer();
    const refuse = (request: IncomingMessage) => ({ status: 403, body: `refused ${request.url ?? ''}` });
    server.route('/docs.git', refuse);
    server.route('/info/refs', refuse);
    server.route('/openapi.yaml', refuse);
    server.route('/b.yaml', refuse);
    const origin = new URL(server.origin);
    const repo = `http://bot:${SECRETS.gitPassword}@${origin.host}/docs.git?access_token=${SECRETS.gitToken}`;
    const specA = `${server.origin}/openapi.yaml?token=${SECRETS.specToken}&X-Amz-Signature=${SECRETS.specSignature}`;
    const specB = `http://spec:${SECRETS.specPassword}@${origin.host}/b.yaml?api_key=${SECRETS.specKey}`;

    const prefix = uniquePrefix('secrets');
    const redis = testRedis(prefix);
    const daemon = await startTestDaemon({
      prefix,
      jobs: JOBS,
      yaml: `dataDir: ${join(dir, 'data')}
queues: { attempts: 1 }
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
mappings:
  - name: docs
    space: ${space}
    git: { repo: "${repo}", branch: main, poll: 1s }
openapi:
  - { org: ${emulator.orgId}, slug: spec-a, every: 1h, source: "${specA}" }
  - { org: ${emulator.orgId}, slug: spec-b, every: 1h, source: "${specB}" }
`,
    });

    const statusText = async () => (await fetch(`${daemon.httpAddress}/status`)).text();
    const status = await waitFor(async () => {
      const text = await statusText();
      const answer = JSON.parse(text) as StatusAnswer;
      const failed = (name: string) => answer.failures.filter((failure) => failure.name === name).length;
      const ready =
        failed('poll-git') >= 1 &&
        failed('refresh-openapi') >= 2 &&
        answer.mappings[0]?.lastError !== undefined &&
        answer.openapi.every((spec) => spec.lastRefresh?.result === 'failed');
      return ready ? { text, answer } : undefined;
    }, 'the git poll and both OpenAPI refreshes to fail');

    // The URLs did reach each place, with their credentials hidden and parameter names kept.
    expect(status.answer.mappings[0]?.repo).toBe(
      `http://***@${origin.host}/docs.git?access_token=[redacted]`,
    );
    expect(status.answer.openapi.map((spec) => spec.source)).toEqual([
      `${server.origin}/openapi.yaml?token=[redacted]&X-Amz-Signature=[redacted]`,
      `http://***@${origin.host}/b.yaml?api_key=[redacted]`,
    ]);

    const page = await (await fetch(`${daemon.httpAddress}/`)).text();
    expect(page).toContain('access_token=[redacted]');
    const tables = await runStatusCommand(daemon.httpAddress, false);
    const json = await runStatusCommand(daemon.httpAddress, true);
    expect(json.stdout).toContain('access_token=[redacted]');
    const stored = await everyValueUnder(redis, prefix);
    expect(stored).toContain('refresh-openapi');

    const places = {
      log: daemon.texts.join('\n'),
      status: status.text,
      page,
      'docsync status': `${tables.stdout}\n${tables.stderr}`,
      'docsync status --json': `${json.stdout}\n${json.stderr}`,
      redis: stored,
    };
    for (const [place, text] of Object.entries(places))
      for (const [name, secret] of Object.entries(SECRETS))
        expect(text.includes(secret), `${name} in ${place}`).toBe(false);
  });
});

async function runStatusCommand(url: string, json: boolean): Promise<{ stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' };
  const sink = (key: 'stdout' | 'stderr') =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out[key] += chunk.toString('utf8');
        done();
      },
    });
  await statusCommand(
    { url, json },
    { stdout: sink('stdout'), stderr: sink('stderr'), env: {}, cwd: process.cwd() },
  );
  return out;
}

/** Every key under `prefix` and everything it holds, whatever its type, as one text. */
async function everyValueUnder(redis: Redis, prefix: string): Promise<string> {
  const parts: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) parts.push(key, ...(await valuesOf(redis, key)));
  } while (cursor !== '0');
  return parts.join('\n');
}

async function valuesOf(redis: Redis, key: string): Promise<string[]> {
  const type = await redis.type(key);
  switch (type) {
    case 'string':
      return [(await redis.get(key)) ?? ''];
    case 'hash':
      return Object.entries(await redis.hgetall(key)).flat();
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'set':
      return redis.smembers(key);
    case 'zset':
      return redis.zrange(key, 0, -1, 'WITHSCORES');
    case 'stream':
      return (await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
    case 'none':
      // Removed between SCAN and TYPE (a lock, a job removed when done).
      return [];
    default:
      throw new Error(`key ${key} has type ${type}, which this test does not read`);
  }
}
