import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems as linesOf } from '../../support/config-problems.js';

describe('environment interpolation', () => {
  it('substitutes ${VAR} and falls back to ${VAR:-default}', () => {
    const text = 'service:\n  baseUrl: ${BASE:-https://docs.example.com/v1}\n  token: "${TOKEN}"\n';
    const config = parseConfig(text, 'c.yaml', { TOKEN: 'abc' });
    expect(config.service).toMatchObject({ baseUrl: 'https://docs.example.com/v1', token: 'abc' });
  });

  it('treats an empty optional value as unset, so ${REDIS_URL:-} means the embedded Redis', () => {
    expect(parseConfig('redis:\n  url: ${REDIS_URL:-}\n', 'c.yaml', {}).redis.url).toBeUndefined();
    expect(
      parseConfig('redis:\n  url: ${REDIS_URL:-}\n', 'c.yaml', { REDIS_URL: 'redis://h:1' }).redis.url,
    ).toBe('redis://h:1');
  });

  it('names the key and the variable when a variable is not set', () => {
    expect(
      linesOf(() =>
        parseConfig('service:\n  baseUrl: https://x.test/v1\n  token: ${DOCSYNC_TOKEN}\n', 'c.yaml', {}),
      ),
    ).toEqual([
      'service.token: environment variable DOCSYNC_TOKEN is not set: set it, or write ${DOCSYNC_TOKEN:-default} (c.yaml:3:10)',
    ]);
  });

  it('reads an unquoted whole reference as a YAML scalar, and a quoted one as a string', () => {
    const config = parseConfig('queues:\n  attempts: ${ATTEMPTS}\n', 'c.yaml', { ATTEMPTS: '7' });
    expect(config.queues.attempts).toBe(7);
    expect(
      linesOf(() => parseConfig('queues:\n  attempts: "${ATTEMPTS}"\n', 'c.yaml', { ATTEMPTS: '7' }))[0],
    ).toMatch(/^queues\.attempts: expected number, got string/);
  });

  it('keeps $${ as a literal ${ and never lets a value inject YAML', () => {
    const config = parseConfig('dataDir: "$${HOME}/x"\nlog:\n  level: ${LEVEL}\n', 'c.yaml', {
      LEVEL: 'info',
    });
    expect(config.dataDir).toBe('${HOME}/x');
    const injected = parseConfig('dataDir: ${DIR}\n', 'c.yaml', { DIR: 'a\nshutdownTimeout: 1s' });
    expect(injected.dataDir).toBe('a\nshutdownTimeout: 1s');
    expect(injected.shutdownTimeout).toBe(30_000);
  });

  it('reports a malformed reference', () => {
    expect(linesOf(() => parseConfig('dataDir: ${not closed\n', 'c.yaml', {}))[0]).toMatch(
      /^dataDir: malformed reference/,
    );
  });
});
