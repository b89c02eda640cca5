import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

const SERVICE = 'service:\n  baseUrl: https://docs.example.com/v1\n  token: ${DOCSYNC_TOKEN}\n';
const ENV = { DOCSYNC_TOKEN: 'secret-token-value', DOCSYNC_ORG: 'org_1' };

const HANDBOOK = `  - name: handbook
    git: { repo: ./repo, branches: ["main", "release/*"], dir: docs }
    spaces:
      title: "Handbook {version}"
      collection: Handbook
      customFields: { version: "{version}" }
    site:
      org: \${DOCSYNC_ORG}
      site: Developer docs
      section: Handbook
      path: "{version}"
      default: main
    onBranchDelete: archive
`;

const parse = (mappings: string) => parseConfig(`${SERVICE}mappings:\n${mappings}`, 'docsync.yaml', ENV);
const problems = (mappings: string) => configProblems(() => parse(mappings));

describe('a mapping of several branches', () => {
  it('is read apart from the single-branch mappings, with its defaults', () => {
    const config = parse(
      `${HANDBOOK}  - name: guide\n    space: spc_9\n    git: { repo: ./other, branch: main }\n`,
    );
    expect(config.mappings.map((mapping) => mapping.name)).toEqual(['guide']);
    expect(config.branchMappings).toHaveLength(1);
    const [handbook] = config.branchMappings;
    expect(handbook?.git).toEqual({
      repo: './repo',
      branches: ['main', 'release/*'],
      dir: 'docs',
      poll: 30_000,
    });
    expect(handbook?.spaces).toEqual({
      title: 'Handbook {version}',
      collection: 'Handbook',
      customFields: { version: '{version}' },
    });
    expect(handbook?.site).toEqual({
      org: 'org_1',
      site: 'Developer docs',
      section: 'Handbook',
      path: '{version}',
      default: 'main',
    });
    expect(handbook?.onBranchDelete).toBe('archive');
    expect(handbook?.changeRequest.autoUpdate).toBe('before-merge');
  });

  it('leaves a single-branch mapping and its problems as they were', () => {
    expect(
      problems(
        '  - name: docs\n    space: spc_1\n    git:\n      repo: ./repo\n      branch: main\n      bracnh: x\n',
      ),
    ).toEqual(['mappings[0].git.bracnh: unknown key: did you mean `branch`? (docsync.yaml:10:7)']);
    expect(problems('  - name: docs\n    space: spc_1\n    git:\n      repo: ./repo\n')).toEqual([
      'mappings[0].git.branch: Required: add `branch` (docsync.yaml:8:7)',
    ]);
  });

  it('names an unknown placeholder, a missing organization and a default no pattern matches', () => {
    const lines = problems(`  - name: handbook
    git: { repo: ./repo, branches: ["release/*"] }
    spaces: { title: "Handbook {tag}" }
    site: { site: Docs, section: Handbook, default: main }
`);
    expect(lines).toEqual([
      'mappings[0].spaces.title: unknown placeholder {tag}: use {branch} or {version} (docsync.yaml:7:22)',
      'mappings[0].spaces.org: Required: name the organization of the spaces in spaces.org or site.org (docsync.yaml:7:13)',
      'mappings[0].site.default: branch main matches none of git.branches (release/*) (docsync.yaml:8:53)',
    ]);
  });

  it('suggests the key a typo under a branches mapping meant', () => {
    const lines = problems(HANDBOOK.replace('onBranchDelete', 'onBranchDelet'));
    expect(lines).toEqual([
      'mappings[0].onBranchDelet: unknown key: did you mean `onBranchDelete`? (docsync.yaml:17:5)',
    ]);
  });

  it('refuses two mappings that claim the same branch of a repository', () => {
    const lines = problems(
      `${HANDBOOK}  - name: main-docs\n    space: spc_2\n    git: { repo: ./repo, branch: main, dir: docs }\n`,
    );
    expect(lines).toEqual([
      'mappings[0].git.branches: branch main of ./repo (folder docs) is claimed by mappings[1] (main-docs) too: give each branch to one mapping (docsync.yaml:6:36)',
    ]);
  });

  it('lets two mappings share a repository on different branches or folders', () => {
    const config = parse(
      `${HANDBOOK}  - name: wiki\n    space: spc_2\n    git: { repo: ./repo, branch: wiki, dir: docs }\n  - name: api\n    space: spc_3\n    git: { repo: ./repo, branch: main, dir: api }\n`,
    );
    expect(config.mappings.map((mapping) => mapping.name)).toEqual(['wiki', 'api']);
  });
});
