// A verified push webhook's body, GitHub- or GitLab-shaped, read into one `PushEvent`: which
// repository (by every URL the payload names), which ref, and the commits before and after. Pure.
import { z } from 'zod';
import { formatZodPath } from '../../errors/format-zod-path.js';

export type GitProvider = 'github' | 'gitlab';

export interface PushEvent {
  provider: GitProvider;
  repository: {
    /** clone, ssh and web URLs of the repository, as the payload gives them, without duplicates. */
    urls: string[];
  };
  /** Such as `refs/heads/main`. */
  ref: string;
  after: string;
  before?: string;
  /** The ref was deleted: there is nothing to import. */
  deleted?: boolean;
}

export type PushParse = { ok: true; push: PushEvent } | { ok: false; issues: string[] };

const url = z.string().nullish();
const sha = z.string().regex(/^[0-9a-f]{7,64}$/i, 'expected a commit id');
const ZERO_SHA = /^0+$/;

// Only the fields docsync reads; the payloads carry much more, which zod drops.
const githubPush = z
  .object({
    ref: z.string().min(1),
    before: sha.nullish(),
    after: sha,
    deleted: z.boolean().nullish(),
    repository: z.object({
      clone_url: url,
      ssh_url: url,
      git_url: url,
      html_url: url,
      svn_url: url,
      url,
    }),
  })
  .transform((body) => ({ ...body, deleted: body.deleted === true, urls: urlsOf(body.repository) }));

const gitlabRepository = z.object({
  git_http_url: url,
  git_ssh_url: url,
  http_url: url,
  ssh_url: url,
  homepage: url,
  web_url: url,
  url,
});

const gitlabPush = z
  .object({
    ref: z.string().min(1),
    before: sha.nullish(),
    after: sha,
    project: gitlabRepository.nullish(),
    repository: gitlabRepository.nullish(),
  })
  // GitLab says a branch was deleted only by an `after` of zeros.
  .transform((body) => ({
    ...body,
    deleted: false,
    urls: [...urlsOf(body.project), ...urlsOf(body.repository)],
  }));

/** The push in `payload` (parsed JSON), or the key paths that are missing or wrong. */
export function parsePushEvent(provider: GitProvider, payload: unknown): PushParse {
  const parsed = provider === 'github' ? githubPush.safeParse(payload) : gitlabPush.safeParse(payload);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map(
        (issue) => `${formatZodPath(issue.path) || '(body)'}: ${issue.message}`,
      ),
    };
  }
  const body = parsed.data;
  const urls = uniqueUrls(body.urls);
  if (urls.length === 0) return { ok: false, issues: ['repository: the push names no repository URL'] };
  const deleted = body.deleted || ZERO_SHA.test(body.after);
  return {
    ok: true,
    push: {
      provider,
      repository: { urls },
      ref: body.ref,
      after: body.after,
      ...(body.before ? { before: body.before } : {}),
      ...(deleted ? { deleted: true } : {}),
    },
  };
}

function urlsOf(repository: Record<string, string | null | undefined> | null | undefined): string[] {
  if (repository === null || repository === undefined) return [];
  return Object.values(repository).filter((value): value is string => typeof value === 'string');
}

function uniqueUrls(urls: readonly string[]): string[] {
  return [...new Set(urls.map((text) => text.trim()).filter((text) => text !== ''))];
}
