import { describe, expect, it } from 'vitest';
import { branchMappingSchema, branchMatches, versionOf } from '../../../src/config/branch-mapping-schema.js';
import { planSiteSpaces } from '../../../src/versions/plan-site-spaces.js';
import {
  defaultBranch,
  MARKER_FIELD,
  sitePathOf,
  unmatchedPatterns,
  versionTargets,
} from '../../../src/versions/version-targets.js';

const mapping = branchMappingSchema.parse({
  name: 'handbook',
  git: { repo: './repo', branches: ['main', 'release/*'] },
  spaces: { org: 'org_1', title: 'Handbook {version}', customFields: { version: '{version}' } },
  site: { site: 'Docs', section: 'Handbook' },
});

describe('branch patterns', () => {
  it('match a branch name, * within one segment and ** across segments', () => {
    expect(branchMatches('release/*', 'release/2.0')).toBe(true);
    expect(branchMatches('release/*', 'release/2.0/fix')).toBe(false);
    expect(branchMatches('release/**', 'release/2.0/fix')).toBe(true);
    expect(branchMatches('main', 'main')).toBe(true);
    expect(branchMatches('main', 'mainline')).toBe(false);
    expect(branchMatches('v1.0', 'v1x0')).toBe(false);
  });

  it('give the version as what the wildcards matched, or the branch itself', () => {
    expect(versionOf('release/*', 'release/2.1')).toBe('2.1');
    expect(versionOf('main', 'main')).toBe('main');
  });
});

describe('site paths', () => {
  it('keep digits and dots, lower-case the rest and join what cannot be in a path with -', () => {
    expect(sitePathOf('2.0')).toBe('2.0');
    expect(sitePathOf('Release/2.1 RC')).toBe('release-2.1-rc');
    expect(sitePathOf('--feature//x--')).toBe('feature-x');
    expect(sitePathOf('../')).toBe('version');
    expect(sitePathOf('a'.repeat(150))).toHaveLength(100);
  });
});

describe('versionTargets', () => {
  it('declares one space per matching branch, with its title, fields, marker and path', () => {
    const targets = versionTargets(mapping, ['main', 'release/2.0', 'feature/x']);
    expect(targets).toEqual([
      {
        branch: 'main',
        version: 'main',
        title: 'Handbook main',
        path: 'main',
        customFields: { version: 'main', [MARKER_FIELD]: 'handbook/main' },
        marker: 'handbook/main',
      },
      {
        branch: 'release/2.0',
        version: '2.0',
        title: 'Handbook 2.0',
        path: '2.0',
        customFields: { version: '2.0', [MARKER_FIELD]: 'handbook/release/2.0' },
        marker: 'handbook/release/2.0',
      },
    ]);
  });

  it('names the patterns that match nothing, and the default branch', () => {
    expect(unmatchedPatterns(mapping, ['main'])).toEqual(['release/*']);
    expect(defaultBranch(mapping)).toBe('main');
  });
});

describe('planSiteSpaces', () => {
  it('adds what is missing, corrects paths, removes retired branches and leaves others alone', () => {
    const plan = planSiteSpaces(
      [
        { siteSpace: 'ss_main', space: 'spc_main', path: 'main', default: true },
        { siteSpace: 'ss_2', space: 'spc_2', path: 'wrong', default: false },
        { siteSpace: 'ss_old', space: 'spc_old', path: '1.0', default: false },
        { siteSpace: 'ss_people', space: 'spc_people', path: 'extra', default: false },
      ],
      [
        { branch: 'main', space: 'spc_main', path: 'main' },
        { branch: 'release/2.0', space: 'spc_2', path: '2.0' },
        { branch: 'release/3.0', space: 'spc_3', path: '3.0' },
      ],
      [{ branch: 'release/1.0', space: 'spc_old', reason: 'branch deleted' }],
    );
    expect(plan.changes).toEqual([
      { kind: 'add', branch: 'release/3.0', space: 'spc_3', path: '3.0' },
      { kind: 'remove', branch: 'release/1.0', siteSpace: 'ss_old', reason: 'branch deleted' },
      { kind: 'path', branch: 'release/2.0', siteSpace: 'ss_2', path: '2.0', was: 'wrong' },
    ]);
    expect(plan.kept).toEqual({ main: 'ss_main', 'release/2.0': 'ss_2' });
  });

  it('never takes the last site space of a section, which the service refuses', () => {
    const plan = planSiteSpaces(
      [{ siteSpace: 'ss_old', space: 'spc_old', path: '1.0', default: true }],
      [],
      [{ branch: 'release/1.0', space: 'spc_old', reason: 'branch deleted' }],
    );
    expect(plan.changes).toEqual([]);
  });

  it('plans nothing when the section is as declared', () => {
    const plan = planSiteSpaces(
      [{ siteSpace: 'ss_main', space: 'spc_main', path: 'main', default: true }],
      [{ branch: 'main', space: 'spc_main', path: 'main' }],
      [],
    );
    expect(plan.changes).toEqual([]);
  });
});
