// The token a commit status is posted with: the one read from `report.*.tokenEnv` when the
// configuration was read, or, for `report.github` without it, a current installation token of the
// mapping's GitHub App (src/github-app/), asked for before each post since it is renewed as it ages.
import type { GitCredentials } from '../git/git-credentials.js';
import { GitHostError } from './git-host-error.js';
import type { GitHostReport } from './report-config-schema.js';

/** A token for one post: asked for just before it, since an app's token is renewed as it ages. */
export type StatusToken = (signal: AbortSignal) => Promise<string>;

/** Credentials that also give their token to an API (github-app-credentials.ts). */
interface TokenGiving {
  token(signal?: AbortSignal): Promise<string>;
}

function givesToken(credentials: GitCredentials | undefined): credentials is GitCredentials & TokenGiving {
  return typeof (credentials as Partial<TokenGiving> | undefined)?.token === 'function';
}

/**
 * How `report` gets its token. `credentials` are the repository's (`git.auth`); the configuration
 * lets `report.github` go without tokenEnv only beside a GitHub App (checkReportToken).
 */
export function statusToken(report: GitHostReport, credentials: GitCredentials | undefined): StatusToken {
  const { token } = report;
  if (token !== undefined) return () => Promise.resolve(token);
  if (givesToken(credentials)) return (signal) => credentials.token(signal);
  return () =>
    Promise.reject(
      new GitHostError(
        'GIT_HOST_REFUSED',
        'report.github has no tokenEnv and the mapping has no git.auth.githubApp to post with: give one of the two',
        { host: report.host },
      ),
    );
}
