// What a branches mapping declares for each of its branches: the space's title, custom field values
// and marker, and the site path. Pure: filled from the mapping and the branch names git holds.
import { type BranchMappingConfig, branchMatches, versionOf } from '../config/branch-mapping-schema.js';

/** The custom field docsync writes into every space it makes: `<mapping>/<branch>`, found again by it. */
export const MARKER_FIELD = 'docsync-version';

const SITE_PATH_MAX = 100;

export interface VersionTarget {
  branch: string;
  version: string;
  title: string;
  /** The site path of its site space. */
  path: string;
  /** Values by custom field name, the marker included. */
  customFields: Record<string, string>;
  marker: string;
}

export function markerOf(mapping: string, branch: string): string {
  return `${mapping}/${branch}`;
}

export function fillTemplate(template: string, values: { branch: string; version: string }): string {
  return template.replaceAll('{branch}', values.branch).replaceAll('{version}', values.version);
}

/**
 * A site path from any text (the rule docs/guide/versioned-docs.md documents): lower case; every run of characters
 * other than a-z, 0-9, `.`, `_` and `-` becomes one `-`; `-` and `.` trimmed from both ends; at most
 * 100 characters; `version` when nothing is left. `release/2.1` -> `release-2.1`, `2.1` -> `2.1`.
 */
export function sitePathOf(text: string): string {
  const path = text
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, SITE_PATH_MAX)
    .replace(/[-.]+$/, '');
  return path === '' ? 'version' : path;
}

/** The branches of `branches` the mapping takes, in git's order, each with what it declares. */
export function versionTargets(mapping: BranchMappingConfig, branches: readonly string[]): VersionTarget[] {
  return branches.flatMap((branch) => {
    const pattern = mapping.git.branches.find((candidate) => branchMatches(candidate, branch));
    if (pattern === undefined) return [];
    const version = versionOf(pattern, branch);
    const values = { branch, version };
    const marker = markerOf(mapping.name, branch);
    const customFields = Object.fromEntries(
      Object.entries(mapping.spaces.customFields).map(([name, template]) => [
        name,
        fillTemplate(template, values).slice(0, 256),
      ]),
    );
    return [
      {
        branch,
        version,
        title: fillTemplate(mapping.spaces.title, values).slice(0, 50),
        path: sitePathOf(fillTemplate(mapping.site?.path ?? '{version}', values)),
        customFields: { ...customFields, [MARKER_FIELD]: marker },
        marker,
      },
    ];
  });
}

/** The patterns of the mapping that match none of `branches`: each one is a warning. */
export function unmatchedPatterns(mapping: BranchMappingConfig, branches: readonly string[]): string[] {
  return mapping.git.branches.filter((pattern) => !branches.some((branch) => branchMatches(pattern, branch)));
}

/** The branch whose site space is the default variant: `site.default`, else the first literal branch. */
export function defaultBranch(mapping: BranchMappingConfig): string | undefined {
  return mapping.site?.default ?? mapping.git.branches.find((pattern) => !pattern.includes('*'));
}
