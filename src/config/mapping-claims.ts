// What a mapping claims (its name, its space, the branches and folder of a repository) and the checks
// that no two mappings claim the same. A claim is read from a mapping that parsed, or from the keys
// alone of one with problems elsewhere (a typo in `merge`), so that a space claimed twice is shown
// in the same run as that typo, not once it is fixed.
import { posix } from 'node:path';
import { z } from 'zod';
import { branchMappingSchema, branchMatches, isBranchMapping } from './branch-mapping-schema.js';
import { CONFIG_PARSE } from './config-parse.js';
import { mappingSchema } from './mapping-schema.js';

export interface SingleBranchClaim {
  kind: 'branch';
  name: string;
  space: string;
  git: { repo: string; branch: string; dir: string };
}

export interface BranchesClaim {
  kind: 'branches';
  name: string;
  git: { repo: string; branches: readonly string[]; dir: string };
}

export type MappingClaim = SingleBranchClaim | BranchesClaim;

type MappingEntry = z.output<typeof mappingSchema> | z.output<typeof branchMappingSchema>;

/** Where a check's problems go: a zod refinement context, or a list. */
export type IssueSink = Pick<z.RefinementCtx, 'addIssue'>;

const single = mappingSchema.shape;
const branches = branchMappingSchema.shape;
// Not strict: the other keys of the mapping are its schema's to judge.
const singleClaimInput = z.object({
  name: single.name,
  space: single.space,
  git: z.object({ repo: single.git.shape.repo, branch: single.git.shape.branch, dir: single.git.shape.dir }),
});
const branchesClaimInput = z.object({
  name: branches.name,
  git: z.object({
    repo: branches.git.shape.repo,
    branches: branches.git.shape.branches,
    dir: branches.git.shape.dir,
  }),
});

export function claimOf(entry: MappingEntry): MappingClaim {
  return isBranchMapping(entry)
    ? { kind: 'branches', name: entry.name, git: entry.git }
    : { kind: 'branch', name: entry.name, space: entry.space, git: entry.git };
}

/** The claim of a mapping as written, when the keys a claim reads are valid; else undefined. */
export function claimFromInput(input: unknown): MappingClaim | undefined {
  const git = typeof input === 'object' && input !== null ? (input as { git?: unknown }).git : undefined;
  if (typeof git === 'object' && git !== null && 'branches' in git) {
    const read = branchesClaimInput.safeParse(input, CONFIG_PARSE);
    return read.success ? { kind: 'branches', ...read.data } : undefined;
  }
  const read = singleClaimInput.safeParse(input, CONFIG_PARSE);
  return read.success ? { kind: 'branch', ...read.data } : undefined;
}

/** Every check between two mappings; an undefined claim (a mapping not read) is left out. */
export function checkMappingClaims(claims: readonly (MappingClaim | undefined)[], ctx: IssueSink): void {
  checkMappingsApart(claims, ctx);
  checkBranchClaims(claims, ctx);
}

/** Two single-branch mappings must never write to the same space, nor read overlapping folders of one branch. */
function checkMappingsApart(claims: readonly (MappingClaim | undefined)[], ctx: IssueSink): void {
  claims.forEach((mapping, i) => {
    if (mapping?.kind !== 'branch') return;
    for (let j = 0; j < i; j += 1) {
      const other = claims[j];
      if (other?.kind !== 'branch') continue;
      if (other.name === mapping.name) {
        ctx.addIssue({
          code: 'custom',
          path: ['mappings', i, 'name'],
          message: `duplicate name: mappings[${j}] is also "${mapping.name}"`,
        });
      }
      if (other.space === mapping.space) {
        ctx.addIssue({
          code: 'custom',
          path: ['mappings', i, 'space'],
          message: `mappings[${j}] (${other.name}) already maps space ${mapping.space}`,
        });
      }
      if (
        other.git.repo === mapping.git.repo &&
        other.git.branch === mapping.git.branch &&
        foldersOverlap(other.git.dir, mapping.git.dir)
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['mappings', i, 'git', 'dir'],
          message: `overlaps mappings[${j}] (${other.name}): ${other.git.dir} and ${mapping.git.dir} on the same repository and branch`,
        });
      }
    }
  });
}

function foldersOverlap(a: string, b: string): boolean {
  if (a === '.' || b === '.' || a === b) return true;
  const inside = (child: string, parent: string) => posix.relative(parent, child).split('/')[0] !== '..';
  return inside(a, b) || inside(b, a);
}

/**
 * Two mappings must never claim the same branch of a repository: a branches mapping's literal
 * branch, or a single mapping's branch, that another branches mapping's patterns also match. (Two
 * patterns that overlap without a literal branch, `release/*` and `release/2.*`, are not caught.)
 */
function checkBranchClaims(claims: readonly (MappingClaim | undefined)[], ctx: IssueSink): void {
  claims.forEach((entry, i) => {
    if (entry?.kind !== 'branches') return;
    claims.forEach((other, j) => {
      if (other === undefined || i === j || other.git.repo !== entry.git.repo) return;
      if (other.name === entry.name && j < i) {
        ctx.addIssue({
          code: 'custom',
          path: ['mappings', i, 'name'],
          message: `duplicate name: mappings[${j}] is also "${entry.name}"`,
        });
      }
      if (!foldersOverlap(other.git.dir, entry.git.dir) || (other.kind === 'branches' && j > i)) return;
      const claimed =
        literalBranches(other).find((branch) => matchesBranch(entry, branch)) ??
        (other.kind === 'branches'
          ? literalBranches(entry).find((branch) => matchesBranch(other, branch))
          : undefined);
      if (claimed !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['mappings', i, 'git', 'branches'],
          message: `branch ${claimed} of ${entry.git.repo} (folder ${entry.git.dir}) is claimed by mappings[${j}] (${other.name}) too: give each branch to one mapping`,
        });
      }
    });
  });
}

const literalBranches = (claim: MappingClaim): string[] =>
  claim.kind === 'branches'
    ? claim.git.branches.filter((pattern) => !pattern.includes('*'))
    : [claim.git.branch];

const matchesBranch = (claim: BranchesClaim, branch: string): boolean =>
  claim.git.branches.some((pattern) => branchMatches(pattern, branch));

/**
 * The problems between the mappings of the file as written, each claim read from its keys alone:
 * for a file that did not parse, whose schema check compared only the mappings that did.
 */
export function claimIssuesOfInput(input: unknown): { path: PropertyKey[]; message: string }[] {
  const items = typeof input === 'object' && input !== null ? (input as { mappings?: unknown }).mappings : [];
  if (!Array.isArray(items)) return [];
  const found: { path: PropertyKey[]; message: string }[] = [];
  checkMappingClaims(items.map(claimFromInput), {
    addIssue: (issue) => {
      if (typeof issue !== 'string')
        found.push({ path: [...(issue.path ?? [])], message: issue.message ?? '' });
    },
  });
  return found;
}
