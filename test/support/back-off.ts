// What the tests of failing work's back-off read: the tries of a job in a daemon's log, the next
// try a failure of it records in the mapping's state, and `docsync retry --mapping` run as a person
// runs it, against the daemon's Redis.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { retryCommand } from '../../src/cli/retry-command.js';
import type { MappingStateStore } from '../../src/state/mapping-state.js';
import { stateWhere } from './state-where.js';
import { redisUrl } from './test-context.js';
import type { DaemonSetup } from './token-fix.js';

type LogLine = Record<string, unknown>;

/** The runs of job `name` so far: each try ends in one of these lines. */
export function triesOf(lines: readonly LogLine[], name: string): number {
  return lines.filter(
    (line) =>
      line.name === name &&
      typeof line.msg === 'string' &&
      (line.msg.startsWith('job failed') || line.msg === 'job completed'),
  ).length;
}

/** The `work backs off` lines of the runner, in order: the failures in a row and their next tries. */
export function backOffLines(lines: readonly LogLine[]): LogLine[] {
  return lines.filter((line) => line.msg === 'work backs off');
}

/** The next try of `job`'s failure in the mapping `docs` once it is at least `aheadMs` away. */
export async function nextTryAhead(
  state: Pick<MappingStateStore, 'get'>,
  job: string,
  aheadMs: number,
): Promise<string> {
  const waiting = await stateWhere(
    state,
    'docs',
    (s) => {
      const nextTry = s.failures?.[job]?.last.nextTry;
      return nextTry !== undefined && Date.parse(nextTry) - Date.now() >= aheadMs;
    },
    `a next try of ${job} ${aheadMs} ms away`,
    40_000,
  );
  return waiting.failures?.[job]?.last.nextTry ?? '';
}

/** `docsync retry --mapping docs` against the daemon of `setup`, with what it printed. */
export async function retryMappingDocs(setup: DaemonSetup): Promise<{ code: number; stdout: string }> {
  const file = join(setup.dataDir, 'retry.yaml');
  await writeFile(
    file,
    `redis: { url: "${redisUrl()}", prefix: ${setup.prefix} }\nservice: { baseUrl: "${setup.emulator.baseUrl}", token: unused }\n${setup.yaml}`,
  );
  let stdout = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString('utf8'));
        done();
      },
    });
  const io = {
    stdout: sink((text) => {
      stdout += text;
    }),
    stderr: sink(() => undefined),
    env: {},
    cwd: setup.dataDir,
  };
  const code = await retryCommand({ config: file, mapping: 'docs' }, io);
  return { code, stdout };
}
