// What an integration test file needs to stay apart from the others: its own key prefix on the
// shared private Redis, temp folders removed at the end, and a logger whose lines can be read.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { createLogger, type Logger, type LogLevel } from '../../src/log/create-logger.js';
import { closeAfter } from './close-after.js';

export function uniquePrefix(label: string): string {
  return `test-${label}-${randomUUID().slice(0, 8)}`;
}

export function redisUrl(): string {
  return inject('redisUrl');
}

/** A Redis client for the test itself, closed after the file; deletes the prefix's keys on close. */
export function testRedis(prefix: string): Redis {
  const client = new Redis(redisUrl(), { maxRetriesPerRequest: null });
  closeAfter(async () => {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  });
  return client;
}

export async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `docsync-${label}-`));
  closeAfter(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export interface CapturedLog {
  log: Logger;
  lines: Array<Record<string, unknown>>;
  /** The same lines as written, for what parsing hides (a key written twice). */
  texts: string[];
}

/** docsync's own logger writing JSON into memory, so tests can assert what was logged (and redacted). */
/** `onLine` sees each line as it is logged, within the logging call. */
export function captureLog(
  level: LogLevel = 'debug',
  onLine?: (line: Record<string, unknown>) => void,
): CapturedLog {
  const lines: Array<Record<string, unknown>> = [];
  const texts: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        texts.push(line);
        const parsed = JSON.parse(line) as Record<string, unknown>;
        lines.push(parsed);
        onLine?.(parsed);
      }
      done();
    },
  });
  return { log: createLogger({ level, destination: sink }), lines, texts };
}
