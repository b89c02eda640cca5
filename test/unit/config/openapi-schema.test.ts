import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { type OpenApiConfig, withAbsoluteLocalPaths } from '../../../src/config/openapi-schema.js';
import { configProblems } from '../../support/config-problems.js';

const SERVICE = 'service:\n  baseUrl: https://docs.example.com/v1\n  token: secret-token-value\n';
const MAPPING = 'mappings:\n  - name: docs\n    space: space_1\n    git: { repo: ./repo, branch: main }\n';

function specs(lines: string[]): OpenApiConfig[] {
  return parseConfig(`${SERVICE}${MAPPING}openapi:\n${lines.join('\n')}\n`, 'docsync.yaml', {}).openapi;
}

function problems(lines: string[]): string[] {
  return configProblems(() => specs(lines));
}

describe('openapi configuration', () => {
  it('takes a root for a local file and for a file of a mapped repository, and a maxRefFiles', () => {
    const [local, git, plain] = specs([
      '  - { org: o, slug: a, every: 1h, source: { file: spec/openapi.yaml, root: . }, maxRefFiles: 500 }',
      '  - { org: o, slug: b, every: 1h, source: { mapping: docs, path: api/spec/openapi.yaml, root: api } }',
      '  - { org: o, slug: c, every: 1h, source: { file: ./openapi.yaml } }',
    ]);
    expect(local).toMatchObject({ source: { file: 'spec/openapi.yaml', root: '.' }, maxRefFiles: 500 });
    expect(git).toMatchObject({ source: { mapping: 'docs', path: 'api/spec/openapi.yaml', root: 'api' } });
    expect(plain).toMatchObject({ source: { file: './openapi.yaml' }, maxRefFiles: 200 });
  });

  it('refuses a root that does not hold the spec, or leaves the repository, naming the key and the fix', () => {
    const lines = problems([
      '  - { org: o, slug: a, every: 1h, source: { file: spec/openapi.yaml, root: common } }',
      '  - { org: o, slug: b, every: 1h, source: { mapping: docs, path: spec/openapi.yaml, root: ../.. } }',
      '  - { org: o, slug: c, every: 1h, source: { mapping: docs, path: spec/openapi.yaml, root: api } }',
    ]);
    expect(lines).toEqual([
      expect.stringMatching(
        /^openapi\[0\]\.source\.root: "common" does not contain the spec's file spec\/openapi\.yaml: .*such as root: \. \(docsync\.yaml:\d+:\d+\)$/,
      ),
      expect.stringMatching(
        /^openapi\[1\]\.source\.root: "\.\.\/\.\." leaves the repository: give a folder of the repository, such as root: \./,
      ),
      expect.stringMatching(
        /^openapi\[2\]\.source\.root: "api" does not contain the spec's path spec\/openapi\.yaml/,
      ),
    ]);
  });

  it('says how to write a local path given where a URL is expected', () => {
    const lines = problems([
      '  - { org: o, slug: a, every: 1h, source: ./openapi.yaml }',
      '  - { org: o, slug: b, every: 1h, source: "file:///srv/openapi.yaml" }',
      '  - { org: o, slug: c, every: 1h, source: "ftp://example.com/openapi.yaml" }',
    ]);
    expect(lines[0]).toMatch(
      /^openapi\[0\]\.source: "\.\/openapi\.yaml" is not a URL: for a local file write source: \{ file: \.\/openapi\.yaml \}/,
    );
    expect(lines[1]).toMatch(
      /^openapi\[1\]\.source: a source URL must be http\(s\): for a local file write source: \{ file: <path> \}/,
    );
    expect(lines[2]).toMatch(/^openapi\[2\]\.source: a source URL must be http\(s\)/);
    expect(lines).toHaveLength(3);
  });

  it('bounds maxRefFiles and names the key', () => {
    const lines = problems([
      '  - { org: o, slug: a, every: 1h, source: "https://x.test/a.yaml", maxRefFiles: -1 }',
      '  - { org: o, slug: b, every: 1h, source: "https://x.test/b.yaml", maxRefFiles: 20000 }',
    ]);
    expect(lines[0]).toMatch(/^openapi\[0\]\.maxRefFiles: give 0 \(no other files\) or more/);
    expect(lines[1]).toMatch(/^openapi\[1\]\.maxRefFiles: at most 10000/);
  });

  it('makes a local file and its root absolute against the folder docsync runs in', () => {
    const [local, url] = specs([
      '  - { org: o, slug: a, every: 1h, source: { file: spec/openapi.yaml, root: . } }',
      '  - { org: o, slug: b, every: 1h, source: "https://x.test/b.yaml" }',
    ]);
    expect(withAbsoluteLocalPaths(local as OpenApiConfig, '/srv/api').source).toEqual({
      file: '/srv/api/spec/openapi.yaml',
      root: '/srv/api',
    });
    expect(withAbsoluteLocalPaths(url as OpenApiConfig, '/srv/api')).toBe(url);
  });
});
