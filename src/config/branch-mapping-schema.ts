// A mapping of several branches (`git.branches`): one space per matching branch, made and kept by
// docsync in a collection and published as a variant of a site section (src/versions/). A mapping
// with `git.branch` is the single-branch mapping of mapping-schema.ts, unchanged.
import { z } from 'zod';
import { CONFIG_PARSE } from './config-parse.js';
import { checkGitAuth } from './git-auth-schema.js';
import { withJsonSchemaHint } from './json-schema-hints.js';
import { mappingSchema } from './mapping-schema.js';
import { whenParsed } from './parsed-parts.js';

export const VERSION_PLACEHOLDERS = ['branch', 'version'] as const;

const single = mappingSchema.shape;

/** A text with {branch} and {version} only: checked here, filled per branch by src/versions/. */
const template = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .superRefine((text, ctx) => {
      for (const [, placeholder] of text.matchAll(/\{([^}]*)\}/g)) {
        if (!(VERSION_PLACEHOLDERS as readonly string[]).includes(placeholder ?? '')) {
          ctx.addIssue({
            code: 'custom',
            message: `unknown placeholder {${placeholder}}: use {branch} or {version}`,
          });
        }
      }
    });

/**
 * A branch pattern: a branch name, where `*` stands for any characters but `/` and `**` for any
 * characters: `main`, `release/*`.
 */
const branchPattern = z
  .string()
  .min(1)
  .max(200)
  .refine((text) => !/[\s~^:?[\\]|\.\.|^\/|\/$|^-/.test(text), {
    message: 'a branch name or pattern such as main or release/*: no spaces, ~ ^ : ? [ \\ or ..',
  });

const customFieldName = z
  .string()
  .regex(/^[a-z0-9_-]{1,50}$/, 'a custom field name: 1 to 50 of a-z, 0-9, _ and -');

export const branchMappingSchema = z
  .strictObject({
    name: single.name,
    direction: single.direction,
    git: z
      .strictObject({
        repo: z.string().min(1),
        auth: single.git.shape.auth,
        branches: z.array(branchPattern).min(1),
        dir: single.git.shape.dir,
        poll: single.git.shape.poll,
      })
      .superRefine(checkGitAuth, whenParsed(['repo'], ['auth'])),
    spaces: z.strictObject({
      /** The organization the spaces are made in; the site's when absent. */
      org: z.string().min(1).optional(),
      /** The service limits a space title to 50 characters once filled. */
      title: template(50).default('{branch}'),
      /** A collection's id or title: created when missing. */
      collection: z.string().min(1).max(50).optional(),
      customFields: z.record(customFieldName, template(256)).default({}),
    }),
    site: z
      .strictObject({
        org: z.string().min(1).optional(),
        /** A site's id or title: it must exist. */
        site: z.string().min(1),
        /** A section's title: created when missing. */
        section: z.string().min(2).max(64),
        path: template(100).default('{version}'),
        /** The branch whose space is the section's default variant. */
        default: z.string().min(1).optional(),
      })
      .optional(),
    /** keep | archive (taken off the site) | delete (the service keeps it 7 days). */
    onBranchDelete: z.enum(['keep', 'archive', 'delete']).default('keep'),
    changeRequest: single.changeRequest,
    merge: single.merge,
    links: single.links,
    export: single.export,
    import: single.import,
  })
  .superRefine(
    (mapping, ctx) => {
      if (mapping.spaces.org === undefined && mapping.site?.org === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['spaces', 'org'],
          message: 'Required: name the organization of the spaces in spaces.org or site.org',
        });
      }
      if (
        mapping.spaces.org !== undefined &&
        mapping.site?.org !== undefined &&
        mapping.spaces.org !== mapping.site.org
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['site', 'org'],
          message: `the site's organization (${mapping.site.org}) must be that of the spaces (${mapping.spaces.org}): a site publishes spaces of its own organization`,
        });
      }
      const fallback = mapping.site?.default;
      if (
        fallback !== undefined &&
        !mapping.git.branches.some((pattern) => branchMatches(pattern, fallback))
      ) {
        ctx.addIssue({
          code: 'custom',
          path: ['site', 'default'],
          message: `branch ${fallback} matches none of git.branches (${mapping.git.branches.join(', ')})`,
        });
      }
    },
    whenParsed(['spaces', 'org'], ['site', 'org'], ['site', 'default'], ['git', 'branches']),
  );

export type BranchMappingConfig = z.output<typeof branchMappingSchema>;

/** Whether `branch` is one of the pattern's branches. */
export function branchMatches(pattern: string, branch: string): boolean {
  return patternRegExp(pattern).test(branch);
}

/** The part of `branch` the pattern's wildcards matched (`release/*`, `release/2.1` -> `2.1`), or the branch. */
export function versionOf(pattern: string, branch: string): string {
  const match = patternRegExp(pattern).exec(branch);
  const parts = match?.slice(1).filter((part) => part !== undefined && part !== '') ?? [];
  return parts.length === 0 ? branch : parts.join('/');
}

function patternRegExp(pattern: string): RegExp {
  const source = pattern
    .split(/(\*\*|\*)/)
    .map((part) => {
      if (part === '**') return '(.+)';
      if (part === '*') return '([^/]+)';
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** True for a mapping of the configuration that names `git.branches`. */
export function isBranchMapping(mapping: object): mapping is BranchMappingConfig {
  return 'spaces' in mapping;
}

type MappingEntry = z.output<typeof mappingSchema> | BranchMappingConfig;

const hasBranches = (value: unknown): boolean => {
  const git = typeof value === 'object' && value !== null ? (value as { git?: unknown }).git : undefined;
  return typeof git === 'object' && git !== null && 'branches' in git;
};

/**
 * One entry of `mappings`: a branches mapping when its git names `branches`, else a single-branch
 * one, each checked by its own schema alone, so that a problem reads as it did before branches
 * existed (a union would report both forms). The leading union only exposes both shapes to the
 * "did you mean" of src/config/known-keys.ts; its first member takes every value unchanged.
 */
export const mappingEntrySchema = withJsonSchemaHint(
  z.union([z.unknown(), mappingSchema, branchMappingSchema]).transform((value, ctx): MappingEntry => {
    const parsed = hasBranches(value)
      ? branchMappingSchema.safeParse(value, CONFIG_PARSE)
      : mappingSchema.safeParse(value, CONFIG_PARSE);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
    return z.NEVER;
  }),
  { as: z.union([mappingSchema, branchMappingSchema]) },
);

/** Splits the entries of `mappings` into single-branch mappings and branches mappings. */
export function splitMappings(entries: readonly MappingEntry[]): {
  mappings: z.output<typeof mappingSchema>[];
  branchMappings: BranchMappingConfig[];
} {
  const mappings: z.output<typeof mappingSchema>[] = [];
  const branchMappings: BranchMappingConfig[] = [];
  for (const entry of entries) {
    if (isBranchMapping(entry)) branchMappings.push(entry);
    else mappings.push(entry);
  }
  return { mappings, branchMappings };
}
