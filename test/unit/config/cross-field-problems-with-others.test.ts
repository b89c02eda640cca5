// The checks across keys (a space claimed twice, a token a listen address needs, a spec given twice,
// a limit over another) are reported in the same run as every problem of single keys, not only once
// those are fixed; and a check whose keys did not parse stays quiet rather than guess.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

function problems(lines: string[]): string[] {
  return configProblems(() => parseConfig(lines.join('\n'), 'docsync.yaml', {}));
}

const SERVICE = 'service: { baseUrl: "https://x.test/v1", token: t }';
/** A mapping with a problem of its own (lines 3 to 6, the problem at 6:23). */
const DOCS_WITH_A_PROBLEM = [
  '  - name: docs',
  '    space: space_1',
  '    git: { repo: ./repo, branch: main, dir: docs }',
  '    merge: { enabled: yes }',
];
const ITS_PROBLEM =
  'mappings[0].merge.enabled: expected boolean, got string: write true without quotes (YAML reads yes, no, on, off and quoted values as text) (docsync.yaml:6:23)';

describe('checks across keys, with problems of single keys in the same file', () => {
  it('lists a space claimed twice, an open listen address and a spec given twice with the others', () => {
    expect(
      problems([
        SERVICE,
        'queues: { attempts: many }',
        'http: { listen: 0.0.0.0:8787, prot: 1 }',
        'mappings:',
        '  - { name: docs, space: space_1, git: { repo: ./repo, branch: main, dir: docs } }',
        '  - { name: api, space: space_1, git: { repo: ./api, branch: main } }',
        '  - { name: guides, space: space_2, git: { repo: ./guides, branch: main, poll: 1ms } }',
        'openapi:',
        '  - { org: acme, slug: pets, every: 1h, source: "https://x.test/pets.yaml" }',
        '  - { org: acme, slug: pets, every: 1h, source: "https://x.test/pets2.yaml" }',
        '',
      ]),
    ).toEqual([
      'http.prot: unknown key: check its spelling against config/docsync.example.yaml (docsync.yaml:3:31)',
      'queues.attempts: expected number, got string (docsync.yaml:2:21)',
      'mappings[2].git.poll: 1ms is out of range: between 1s and 1d (docsync.yaml:7:80)',
      expect.stringMatching(/^http\.token: Required: listening on 0\.0\.0\.0 reaches beyond this machine/),
      'mappings[1].space: mappings[0] (docs) already maps space space_1 (docsync.yaml:6:25)',
      'openapi[1].slug: duplicate spec: openapi[0] is also acme/pets (docsync.yaml:10:24)',
    ]);
  });

  it('lists a space claimed twice when one of the two mappings has a problem of its own', () => {
    expect(
      problems([
        SERVICE,
        'mappings:',
        ...DOCS_WITH_A_PROBLEM,
        '  - { name: api, space: space_1, git: { repo: ./api, branch: main } }',
        '  - { name: docs, space: space_2, git: { repo: ./repo, branch: main, dir: docs/api, poll: 1ms } }',
        '',
      ]),
    ).toEqual([
      ITS_PROBLEM,
      'mappings[2].git.poll: 1ms is out of range: between 1s and 1d (docsync.yaml:8:91)',
      'mappings[1].space: mappings[0] (docs) already maps space space_1 (docsync.yaml:7:25)',
      'mappings[2].name: duplicate name: mappings[0] is also "docs" (docsync.yaml:8:13)',
      'mappings[2].git.dir: overlaps mappings[0] (docs): docs and docs/api on the same repository and branch (docsync.yaml:8:75)',
    ]);
  });

  it('lists a check within one mapping beside another problem of that mapping', () => {
    expect(
      problems([
        SERVICE,
        'mappings:',
        ...DOCS_WITH_A_PROBLEM,
        '    import: { skipFilesOver: 2GB, limits: { maxFileBytes: 1GB } }',
        '',
      ]),
    ).toEqual([
      ITS_PROBLEM,
      expect.stringMatching(
        /^mappings\[0\]\.import\.skipFilesOver: 1\.9 GiB is over limits\.maxFileBytes \(953\.7 MiB\)/,
      ),
    ]);
  });

  it('does not judge what rests on keys that did not parse', () => {
    // The spec names a mapping whose name is not a string: whether it exists is not known yet.
    expect(
      problems([
        SERVICE,
        'mappings:',
        '  - { name: 3, space: space_1, git: { repo: ./repo, branch: main } }',
        'openapi:',
        '  - { org: acme, slug: pets, every: 1h, source: { mapping: docs, path: openapi.yaml } }',
        'notify:',
        '  - { url: "https://hooks.x.test/a", mappings: [docs] }',
        '',
      ]),
    ).toEqual(['mappings[0].name: expected string, got number (docsync.yaml:3:13)']);
  });

  it('runs no check on sections, or a whole file, of the wrong type', () => {
    expect(problems(['- a list, not the keys of a configuration', ''])).toEqual([
      '(document): expected object, got a list (docsync.yaml:1:1)',
    ]);
    expect(
      problems([
        'service: 3',
        'http: 4',
        'mappings: 5',
        'openapi:',
        '  - { org: acme, slug: pets, every: 1h, source: { mapping: docs, path: openapi.yaml } }',
        '',
      ]),
    ).toEqual([
      'service: expected object, got number (docsync.yaml:1:10)',
      'http: expected object, got number (docsync.yaml:2:7)',
      'mappings: expected array, got number (docsync.yaml:3:11)',
    ]);
  });
});
