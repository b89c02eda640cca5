import { describe, expect, it } from 'vitest';
import { redisHashTag } from '../../../src/config/config-schema.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

/** The problem lines without the place in the file. */
const problems = (text: string) =>
  configProblems(() => parseConfig(text, 'docsync.yaml', {})).map((line) =>
    line.replace(/ \(docsync\.yaml[:\d]*\)$/, ''),
  );
const parse = (text: string) => parseConfig(text, 'docsync.yaml', {}).redis;

describe('the redis section', () => {
  it('finds the hash tag as Redis Cluster does: the first {, the next }, not empty', () => {
    expect(['{docsync}', 'docsync{x}:a', 'a{b}{c}', 'a{b{c}'].map(redisHashTag)).toEqual([
      'docsync',
      'x',
      'b',
      'b{c',
    ]);
    expect(['docsync', '{}docsync', 'a{}{b}', 'a}b{', 'a{b'].map(redisHashTag)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('refuses a cluster prefix without a hash tag, and says which prefix to write', () => {
    const nodes = 'redis:\n  cluster:\n    nodes: [redis://10.0.0.1:7000]\n';
    for (const prefix of ['docsync', '"a{}{b}"']) {
      expect(problems(`${nodes}  prefix: ${prefix}\n`)).toEqual([
        "redis.prefix: with redis.cluster the prefix must carry a hash tag, for example {docsync}, so that BullMQ's keys of one queue land in one slot",
      ]);
    }
    expect(parse(`${nodes}  prefix: "docsync{sync}"\n`).prefix).toBe('docsync{sync}');
  });

  it('takes one of url, cluster and sentinel, and names the ones given together', () => {
    const url = '  url: redis://10.0.0.1:6379\n';
    const cluster = '  cluster:\n    nodes: [redis://10.0.0.1:7000]\n';
    const sentinel = '  sentinel:\n    sentinels: [10.0.0.1:26379]\n    name: mymaster\n';
    expect(problems(`redis:\n${url}${sentinel}`)).toEqual([
      'redis.sentinel: give one of redis.url, redis.cluster or redis.sentinel, not redis.url and redis.sentinel',
    ]);
    expect(problems(`redis:\n${url}${cluster}${sentinel}  prefix: "{d}"\n`)[0]).toMatch(
      /^redis\.cluster: give one of .* not redis\.url and redis\.cluster and redis\.sentinel/,
    );
  });

  it('reads sentinels written as host:port or as URLs, with the primary credentials apart', () => {
    const redis = parse(
      'redis:\n  sentinel:\n    sentinels: [10.0.0.1:26379, "redis://:sentinel-secret@sentinel-2.internal:26379"]\n    name: mymaster\n    password: primary-secret\n',
    );
    expect(redis.sentinel).toEqual({
      sentinels: ['10.0.0.1:26379', 'redis://:sentinel-secret@sentinel-2.internal:26379'],
      name: 'mymaster',
      password: 'primary-secret',
    });
    expect(redis.prefix).toBe('docsync');
    expect(problems('redis:\n  sentinel:\n    sentinels: [10.0.0.1]\n    name: mymaster\n')[0]).toMatch(
      /^redis\.sentinel\.sentinels\[0\]: .*host:port/,
    );
    expect(problems('redis:\n  sentinel:\n    sentinels: [10.0.0.1:26379]\n')[0]).toMatch(
      /^redis\.sentinel\.name: /,
    );
  });

  it('takes TLS files only where an address says rediss://, a certificate only with its key', () => {
    expect(problems('redis:\n  url: redis://10.0.0.1:6379\n  tls: { ca: ca.pem }\n')).toEqual([
      'redis.tls: redis.tls is set but no Redis address starts with rediss://: write the address as rediss://host:port to connect with TLS',
    ]);
    expect(
      problems('redis:\n  url: rediss://10.0.0.1:6379\n  tls: { ca: ca.pem, cert: client.pem }\n'),
    ).toEqual([
      'redis.tls.key: give redis.tls.cert and redis.tls.key together (the client certificate and its key)',
    ]);
    expect(
      problems(
        'redis:\n  cluster:\n    nodes: [rediss://10.0.0.1:7000, redis://10.0.0.2:7000]\n  prefix: "{d}"\n',
      )[0],
    ).toMatch(/^redis\.cluster: write every address with rediss:\/\/ \(TLS\) or none/);
    expect(parse('redis:\n  url: rediss://10.0.0.1:6379\n  tls: { ca: ca.pem }\n').tls).toEqual({
      ca: 'ca.pem',
    });
  });
});
