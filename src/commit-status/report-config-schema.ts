// The `report` block of a mapping: the git host that shows each imported commit's status, and the
// environment variable holding its token. The token is read once, when the configuration is read,
// so that a variable that is not set stops the start with its key and line, not the first report.
// On GitHub the variable may be left out when the mapping's git.auth is a GitHub App: its
// installation tokens post the statuses (checked across fields by mapping-schema.ts).
import { z } from 'zod';
import { envName, GITHUB_API_URL, httpBaseUrl } from '../config/named-values.js';

/** Reads one environment variable; the configuration layer passes the process's. */
export type ReadEnv = (name: string) => string | undefined;

/** The name every status docsync posts carries (GitHub's `context`, GitLab's `name`). */
export const STATUS_NAME = 'docsync';

const githubBlock = z.strictObject({
  repo: z
    .string()
    .regex(
      /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/,
      'use owner/name of the GitHub repository, such as acme/docs',
    ),
  /** Optional only beside a `git.auth.githubApp`, whose installation token is used instead. */
  tokenEnv: envName.optional(),
  /** GitHub Enterprise Server: `https://github.example.com/api/v3`. */
  apiUrl: httpBaseUrl('https://github.example.com/api/v3').default(GITHUB_API_URL),
});

const gitlabBlock = z.strictObject({
  /** The GitLab instance, such as https://gitlab.com; the API is under /api/v4. */
  url: httpBaseUrl('https://gitlab.com'),
  /** The project's numeric id, or its path with namespace (group/subgroup/project). */
  project: z
    .union([z.int().positive(), z.string()])
    .transform(String)
    .pipe(
      z
        .string()
        .regex(
          /^(\d+|[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+)$/,
          'use the numeric project id or its path with namespace, such as group/docs',
        ),
    ),
  tokenEnv: envName,
});

/** Where statuses go, as the jobs use it: the host, its API, the repository or project, and the token. */
export type GitHostReport =
  | { host: 'github'; apiUrl: string; repo: string; tokenEnv: string; token: string }
  /** No tokenEnv: the installation token of the mapping's GitHub App (`git.auth.githubApp`). */
  | { host: 'github'; apiUrl: string; repo: string; tokenEnv?: undefined; token?: undefined }
  | { host: 'gitlab'; url: string; project: string; tokenEnv: string; token: string };

/** The `report` block: exactly one of `github` and `gitlab`, its token read through `readEnv`. */
export function reportConfigSchema(readEnv: ReadEnv) {
  return z
    .strictObject({ github: githubBlock.optional(), gitlab: gitlabBlock.optional() })
    .transform((block, ctx): GitHostReport => {
      const { github, gitlab } = block;
      if ((github === undefined) === (gitlab === undefined)) {
        ctx.addIssue({
          code: 'custom',
          message: 'give exactly one git host: github: {repo, tokenEnv} or gitlab: {url, project, tokenEnv}',
        });
        return z.NEVER;
      }
      if (github !== undefined && github.tokenEnv === undefined)
        return { host: 'github', apiUrl: github.apiUrl, repo: github.repo };
      const chosen = github ?? gitlab;
      const key = github === undefined ? 'gitlab' : 'github';
      const tokenEnv = chosen?.tokenEnv ?? '';
      const token = readEnv(tokenEnv)?.trim();
      if (chosen === undefined || token === undefined || token === '') {
        ctx.addIssue({
          code: 'custom',
          path: [key, 'tokenEnv'],
          message: `environment variable ${tokenEnv} is not set: set it to a token that may write commit statuses`,
        });
        return z.NEVER;
      }
      return github === undefined
        ? { host: 'gitlab', ...(gitlab as z.output<typeof gitlabBlock>), token }
        : { host: 'github', apiUrl: github.apiUrl, repo: github.repo, tokenEnv, token };
    });
}

/**
 * For the mapping's superRefine: `report.github` without tokenEnv posts with the installation
 * token of the mapping's GitHub App, so it needs `git.auth.githubApp`; without one, the token's
 * variable is what is missing.
 */
export function checkReportToken(
  mapping: { git: { auth?: { kind: string } | undefined }; report?: GitHostReport | undefined },
  ctx: Pick<z.RefinementCtx, 'addIssue'>,
): void {
  const { report } = mapping;
  if (report?.host !== 'github' || report.token !== undefined || mapping.git.auth?.kind === 'github-app')
    return;
  ctx.addIssue({
    code: 'custom',
    path: ['report', 'github', 'tokenEnv'],
    message:
      'give tokenEnv, the variable of a token that may write commit statuses (only a mapping whose git.auth is a githubApp may leave it out: the app posts them)',
  });
}
