// The HTTP request that posts a commit status, and the answer's shape, for each git host, as their
// public documentation describes them. Pure: post-commit-status.ts sends it.
//   GitHub: POST {apiUrl}/repos/{owner}/{repo}/statuses/{sha}, Bearer token, `context`.
//   GitLab: POST {url}/api/v4/projects/{id}/statuses/{sha}, PRIVATE-TOKEN header, `name`.
import { z } from 'zod';
import { type CommitState, type CommitStatus, fitDescription } from './commit-status.js';
import { type GitHostReport, STATUS_NAME } from './report-config-schema.js';

export interface StatusRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** GitLab names the states of a commit status its own way: `failed` for a failure. */
const GITLAB_STATES: Readonly<Record<CommitState, string>> = {
  pending: 'pending',
  success: 'success',
  failure: 'failed',
  error: 'failed',
};

/** `token`: the report's own (tokenEnv) unless given, such as a GitHub App's installation token. */
export function statusRequest(
  report: GitHostReport,
  sha: string,
  status: CommitStatus,
  token: string | undefined = report.token,
): StatusRequest {
  if (token === undefined)
    throw new Error('statusRequest: no token for the commit status (see status-token.ts)');
  const description = fitDescription(status.description);
  const target = status.targetUrl === undefined ? {} : { target_url: status.targetUrl };
  if (report.host === 'github')
    return {
      url: `${report.apiUrl}/repos/${report.repo}/statuses/${sha}`,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'user-agent': 'docsync',
        'x-github-api-version': '2022-11-28',
      },
      body: JSON.stringify({ state: status.state, context: STATUS_NAME, description, ...target }),
    };
  return {
    url: `${report.url}/api/v4/projects/${encodeURIComponent(report.project)}/statuses/${sha}`,
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'private-token': token,
      'user-agent': 'docsync',
    },
    body: JSON.stringify({ state: GITLAB_STATES[status.state], name: STATUS_NAME, description, ...target }),
  };
}

/** The status the host answers with (201): only what docsync reads of it. */
export const postedStatusSchema = {
  github: z.looseObject({ id: z.number(), state: z.string(), context: z.string() }),
  gitlab: z.looseObject({ id: z.number(), status: z.string(), name: z.string() }),
} as const;

/** Where the status goes, for logs and errors: never the token. */
export function statusTarget(report: GitHostReport): string {
  return report.host === 'github' ? `github:${report.repo}` : `gitlab:${report.project}`;
}
