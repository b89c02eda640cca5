// The `report` block of a mapping: the git host that shows each imported commit's status, and the
// environment variable holding its token. The token is read once, when the configuration is read,
// so that a variable that is not set stops the start with its key and line, not the first report.
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
  tokenEnv: envName,
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
      const chosen = github ?? gitlab;
      const key = github === undefined ? 'gitlab' : 'github';
      const token = chosen === undefined ? undefined : readEnv(chosen.tokenEnv)?.trim();
      if (chosen === undefined || token === undefined || token === '') {
        ctx.addIssue({
          code: 'custom',
          path: [key, 'tokenEnv'],
          message: `environment variable ${chosen?.tokenEnv ?? ''} is not set: set it to a token that may write commit statuses`,
        });
        return z.NEVER;
      }
      return github === undefined
        ? { host: 'gitlab', ...(gitlab as z.output<typeof gitlabBlock>), token }
        : { host: 'github', ...github, token };
    });
}
