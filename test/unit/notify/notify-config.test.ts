import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

const SERVICE = 'service: { baseUrl: "http://127.0.0.1:1/v1", token: t }\n';
const MAPPING =
  'mappings:\n  - { name: docs, space: spc_1, git: { repo: /tmp/r.git, branch: main, dir: docs } }\n';
const problems = (yaml: string) =>
  configProblems(() => parseConfig(`${SERVICE}${MAPPING}${yaml}`, 'docsync.yaml', {})).join('\n');

describe('notify: in the configuration', () => {
  it('defaults to JSON and every event', () => {
    const config = parseConfig(
      `${SERVICE}${MAPPING}notify:\n  - url: https://hooks.test/x\n`,
      'docsync.yaml',
      {},
    );
    expect(config.notify).toEqual([
      {
        url: 'https://hooks.test/x',
        format: 'json',
        events: ['merged', 'failed', 'broken-links', 'conflict', 'failing', 'recovered'],
      },
    ]);
  });

  it('names each bad entry with its place: an unknown event, a URL that is not http(s), a short secret', () => {
    const text = problems(`notify:
  - { url: "https://hooks.test/y", events: [merged, merge] }
  - { url: "ftp://hooks.test/z", secret: short }
`);
    expect(text).toMatch(/notify\[0\]\.events\[1\]: expected one of "merged", "failed", "broken-links"/);
    expect(text).toMatch(/notify\[1\]\.url.*http\(s\)/);
    expect(text).toMatch(/notify\[1\]\.secret.*at least 16 characters/);
  });

  it('names a mapping a webhook is for that the configuration does not have', () => {
    expect(problems('notify:\n  - { url: "https://hooks.test/x", mappings: [docs, handbok] }\n')).toMatch(
      /notify\[0\]\.mappings\[1\].*no mapping is named "handbok": use one of docs/,
    );
  });
});
