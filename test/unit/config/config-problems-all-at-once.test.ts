import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

function problems(text: string, env: Record<string, string> = {}): string[] {
  return configProblems(() => parseConfig(text, 'docsync.yaml', env));
}

const MAPPING = '  - name: docs\n    space: space_1\n    git: { repo: ./repo, branch: main }\n';

describe('configuration problems, all in one run', () => {
  it('reports a missing variable together with every other problem of the file', () => {
    const text = [
      'service:',
      '  baseUrl: ${DOCS_BASE_URL}',
      '  token: ${DOCSYNC_TOKEN}',
      'queues:',
      '  attempts: many',
      'mappings:',
      '  - name: docs',
      '    space: space_1',
      '    git:',
      '      repo: ./repo',
      '      branch: main',
      '      poll: ${POLL}',
      '    merge: { enabled: yes, aprovals: 2 }',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      'service.baseUrl: environment variable DOCS_BASE_URL is not set: set it, or write ${DOCS_BASE_URL:-default} (docsync.yaml:2:12)',
      'service.token: environment variable DOCSYNC_TOKEN is not set: set it, or write ${DOCSYNC_TOKEN:-default} (docsync.yaml:3:10)',
      'mappings[0].git.poll: environment variable POLL is not set: set it, or write ${POLL:-default} (docsync.yaml:12:13)',
      'queues.attempts: expected number, got string (docsync.yaml:5:13)',
      'mappings[0].merge.enabled: expected boolean, got string: write true without quotes (YAML reads yes, no, on, off and quoted values as text) (docsync.yaml:13:23)',
      'mappings[0].merge.aprovals: unknown key: did you mean `approvals`? (docsync.yaml:13:28)',
    ]);
  });

  it('still runs the checks across keys when the only problem is a missing variable', () => {
    const text =
      'service:\n  baseUrl: https://x.test/v1\n  token: ${DOCSYNC_TOKEN}\nhttp:\n  listen: 0.0.0.0:8787\n';
    expect(problems(text)).toEqual([
      'service.token: environment variable DOCSYNC_TOKEN is not set: set it, or write ${DOCSYNC_TOKEN:-default} (docsync.yaml:3:10)',
      expect.stringMatching(/^http\.token: Required: listening on 0\.0\.0\.0 reaches beyond this machine/),
    ]);
  });
});

describe('unknown keys', () => {
  it('name the known key a typo was close to, at any depth', () => {
    const text = `service: { baseUrl: "https://x.test/v1", token: t, timout: 5s }\nqueus: {}\nmappings:\n${MAPPING}    changeRequest: { autoupdate: always }\n    links: { evry: 1h }\n`;
    expect(problems(text)).toEqual([
      'service.timout: unknown key: did you mean `timeout`? (docsync.yaml:1:52)',
      'mappings[0].changeRequest.autoupdate: unknown key: did you mean `autoUpdate`? (docsync.yaml:7:22)',
      'mappings[0].links.evry: unknown key: did you mean `every`? (docsync.yaml:8:14)',
      'queus: unknown key: did you mean `queues`? (docsync.yaml:2:1)',
    ]);
  });

  it('point to the example file when no known key is close', () => {
    expect(problems('telemetry: { enabled: true }\n')).toEqual([
      'telemetry: unknown key: check its spelling against config/docsync.example.yaml (docsync.yaml:1:1)',
    ]);
  });

  it('in one of the forms of an OpenAPI source get their "did you mean" too', () => {
    const text = `service: { baseUrl: "https://x.test/v1", token: t }\nopenapi:\n  - { org: o, slug: a, every: 1h, source: { fiel: ./openapi.yaml } }\n`;
    expect(problems(text)).toEqual([
      'openapi[0].source: give an http(s) URL, { mapping, path } for a file of a mapped repository, or { file } for a local path; `fiel`: did you mean `file`? (docsync.yaml:3:43)',
    ]);
  });
});

describe('hints for the common forms', () => {
  it('tells how to name a local OpenAPI file given where a URL is expected', () => {
    const text = `service: { baseUrl: "https://x.test/v1", token: t }\nopenapi:\n  - { org: o, slug: a, every: 1h, source: ./openapi.yaml }\n`;
    expect(problems(text)).toEqual([
      'openapi[0].source: "./openapi.yaml" is not a URL: for a local file write source: { file: ./openapi.yaml }, for a file of a mapped repository source: { mapping: <name>, path: ./openapi.yaml } (docsync.yaml:3:43)',
    ]);
  });

  it('asks for true or false where a boolean is written as yes, no, on, off or in quotes', () => {
    const text = `service: { baseUrl: "https://x.test/v1", token: t }\ndryRun: "false"\nmappings:\n${MAPPING}    merge: { enabled: on, resolvedComments: "true", noBrokenLinks: no }\n`;
    const lines = problems(text);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      'dryRun: expected boolean, got string: write false without quotes (YAML reads yes, no, on, off and quoted values as text) (docsync.yaml:2:9)',
    );
    expect(lines[1]).toMatch(
      /^mappings\[0\]\.merge\.enabled: expected boolean, got string: write true without quotes/,
    );
    expect(lines[2]).toMatch(
      /^mappings\[0\]\.merge\.resolvedComments: expected boolean, got string: write true without quotes/,
    );
    expect(lines[3]).toMatch(
      /^mappings\[0\]\.merge\.noBrokenLinks: expected boolean, got string: write false without quotes/,
    );
  });

  it('asks for a number without quotes, and says what a duration and a size look like', () => {
    const text = `service: { baseUrl: "https://x.test/v1", token: t }\nqueues: { concurrency: "8", backoff: [5s] }\nmappings:\n${MAPPING}    import: { skipFilesOver: true }\n`;
    expect(problems(text)).toEqual([
      'queues.concurrency: expected number, got string: write the number without quotes (docsync.yaml:2:24)',
      'queues.backoff: expected a duration: write a number with a unit, for example 500ms, 30s, 5m, 1h or 1d (docsync.yaml:2:38)',
      'mappings[0].import.skipFilesOver: expected a size: write a whole number of bytes, or a number with a unit, for example 512KiB or 5MiB (docsync.yaml:7:30)',
    ]);
  });

  it('never quotes credentials of a URL in a problem', () => {
    const text = `service: { baseUrl: "https://x.test/v1", token: t }\nopenapi:\n  - { org: o, slug: a, every: 1h, source: "https://bot:hunter2@[bad/spec.yaml?token=tok-123" }\n`;
    const [line] = problems(text);
    expect(line).toMatch(
      /^openapi\[0\]\.source: "https:\/\/\*\*\*@\[bad\/spec\.yaml\?token=\[redacted\]" is not a valid/,
    );
    expect(line).not.toContain('hunter2');
    expect(line).not.toContain('tok-123');
  });
});
