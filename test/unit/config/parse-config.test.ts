import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

const SERVICE = 'service:\n  baseUrl: https://docs.example.com/v1\n  token: ${DOCSYNC_TOKEN}\n';
const ENV = { DOCSYNC_TOKEN: 'secret-token-value' };

function problems(text: string, env: Record<string, string> = ENV): string[] {
  return configProblems(() => parseConfig(text, 'docsync.yaml', env));
}

describe('parseConfig', () => {
  it('fills every default from an empty document', () => {
    const config = parseConfig('', 'docsync.yaml', {});
    expect(config.dataDir).toBe('.docsync');
    expect(config.http.listen).toEqual({ host: '127.0.0.1', port: 8787 });
    expect(config.redis).toEqual({ prefix: 'docsync' });
    expect(config.queues.attempts).toBe(5);
    expect(config.shutdownTimeout).toBe(30_000);
    expect(config.mappings).toEqual([]);
  });

  it('refuses a working copy debounce shorter than the file watcher can see saves apart', () => {
    const text = `${SERVICE}mappings:\n  - name: docs\n    space: space_1\n    git: { repo: ./repo, branch: main, watch: { path: ., debounce: 20ms } }\n`;
    expect(problems(text)).toEqual([
      'mappings[0].git.watch.debounce: 20ms is out of range: between 100ms and 1m (docsync.yaml:7:68)',
    ]);
  });

  it('names the key path and line of a missing required key', () => {
    const text = `${SERVICE}mappings:\n  - name: docs\n    space: space_1\n    git:\n      repo: ./repo\n`;
    expect(problems(text)).toEqual(['mappings[0].git.branch: Required: add `branch` (docsync.yaml:8:7)']);
  });

  it('reports an unknown key at its own line, with the known key it was probably meant to be', () => {
    const text = `${SERVICE}mappings:\n  - name: docs\n    space: space_1\n    git:\n      repo: ./repo\n      branch: main\n      bracnh: main\n`;
    expect(problems(text)).toEqual([
      'mappings[0].git.bracnh: unknown key: did you mean `branch`? (docsync.yaml:10:7)',
    ]);
  });

  it('lists every problem of the file at once', () => {
    const text = 'http:\n  listen: nowhere\nqueues:\n  attempts: 0\n  backoff: 5\nlog:\n  level: loud\n';
    const lines = problems(text);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^http\.listen: "nowhere" is not a listen address/);
    expect(lines[1]).toBe(
      'log.level: expected one of "fatal", "error", "warn", "info", "debug", "trace" (docsync.yaml:7:10)',
    );
    expect(lines[2]).toMatch(/^queues\.attempts: .* \(docsync\.yaml:4:13\)$/);
    expect(lines[3]).toMatch(/^queues\.backoff: "5" is not a duration: write a number with a unit/);
  });

  it('reports YAML syntax errors with their line', () => {
    const [line] = problems('http:\n  listen: [unclosed\n');
    expect(line).toMatch(/^\(document\): YAML: .* \(docsync\.yaml:\d+:\d+\)$/);
  });

  it('rejects duplicate keys rather than keeping the last one', () => {
    expect(problems('dataDir: a\ndataDir: b\n')).toEqual([
      '(document): YAML: this key appears twice in the same mapping: keep one (docsync.yaml:2:1)',
    ]);
  });

  it('converts durations with units into milliseconds', () => {
    const config = parseConfig('queues:\n  backoff: 1.5s\nshutdownTimeout: 2m\n', 'docsync.yaml', {});
    expect(config.queues.backoff).toBe(1500);
    expect(config.shutdownTimeout).toBe(120_000);
  });

  it('requires the service when mappings are configured', () => {
    const text = 'mappings:\n  - name: docs\n    space: space_1\n    git: { repo: ./repo, branch: main }\n';
    expect(problems(text)).toEqual([
      'service: Required: mappings and openapi need service.baseUrl and service.token (docsync.yaml:1:1)',
    ]);
  });

  it('refuses two mappings on one space or on nested folders of one branch', () => {
    const text = `${SERVICE}mappings:
  - { name: a, space: s1, git: { repo: ./repo, branch: main, dir: docs } }
  - { name: b, space: s1, git: { repo: ./repo, branch: main, dir: docs/api } }
  - { name: c, space: s3, git: { repo: ./repo, branch: main, dir: docs-other } }
  - { name: a, space: s4, git: { repo: ./repo, branch: other, dir: docs } }
`;
    const lines = problems(text);
    expect(lines).toEqual([
      expect.stringMatching(/^mappings\[1\]\.space: mappings\[0\] \(a\) already maps space s1/),
      expect.stringMatching(/^mappings\[1\]\.git\.dir: overlaps mappings\[0\] \(a\): docs and docs\/api/),
      expect.stringMatching(/^mappings\[3\]\.name: duplicate name: mappings\[0\] is also "a"/),
    ]);
  });

  it('refuses a folder outside the repository and an unknown subject placeholder', () => {
    const text = `${SERVICE}mappings:\n  - name: a\n    space: s1\n    git: { repo: ./r, branch: main, dir: ../up }\n    changeRequest: { subject: "docs {title}" }\n`;
    const lines = problems(text);
    expect(lines[0]).toMatch(/^mappings\[0\]\.git\.dir: "..\/up" must be a folder inside the repository/);
    expect(lines[1]).toMatch(/^mappings\[0\]\.changeRequest\.subject: unknown placeholder \{title\}/);
  });

  it('requires a token to listen beyond loopback', () => {
    expect(problems('http:\n  listen: 0.0.0.0:8787\n')[0]).toMatch(
      /^http\.token: Required: listening on 0\.0\.0\.0 reaches beyond this machine/,
    );
    const config = parseConfig(
      'http:\n  listen: 0.0.0.0:8787\n  token: a-long-enough-token\n',
      'docsync.yaml',
      {},
    );
    expect(config.http.listen.host).toBe('0.0.0.0');
  });

  it('requires a hash tag in the prefix for Redis Cluster', () => {
    const text = 'redis:\n  cluster:\n    nodes: [redis://10.0.0.1:7000]\n';
    expect(problems(text)[0]).toMatch(/^redis\.prefix: with redis\.cluster the prefix must carry a hash tag/);
    expect(parseConfig(`${text}  prefix: "{docsync}"\n`, 'docsync.yaml', {}).redis.prefix).toBe('{docsync}');
  });

  it('checks OpenAPI schedules: one of every and pattern, a valid cron, a known zone', () => {
    const text = `${SERVICE}openapi:
  - { org: o1, slug: a, source: "https://x.test/a.yaml" }
  - { org: o1, slug: b, source: "https://x.test/b.yaml", pattern: "61 * * * *" }
  - { org: o1, slug: c, source: "https://x.test/c.yaml", pattern: "0 * * * *", tz: Mars/Base }
  - { org: o1, slug: d, source: { file: ./d.yaml }, every: 1h, upload: url }
`;
    const lines = problems(text);
    expect(lines[0]).toMatch(/^openapi\[0\]\.every: Required: give every/);
    expect(lines[1]).toMatch(/^openapi\[1\]\.pattern: invalid cron pattern "61 \* \* \* \*"/);
    expect(lines[2]).toMatch(/^openapi\[2\]\.tz: unknown time zone "Mars\/Base"/);
    expect(lines[3]).toMatch(/^openapi\[3\]\.upload: upload: url needs a source URL/);
  });
});
