// The hint of a failed commit status, as /status shows it beside the code and message: the setting
// to check (401: the token's variable, or the GitHub App posting). Pure; src/state/failure-hint.ts
// uses it for GitHostError.
import { ERROR_CODES } from '../errors/error-codes.js';
import type { GitHostError } from './git-host-error.js';
import type { GitHostReport } from './report-config-schema.js';

/** What to check when the git host refused or failed a commit status of mapping `name`. */
export function gitHostHint(error: GitHostError, name: string, report: GitHostReport): string {
  const key = `report.${report.host}`;
  const where = report.host === 'github' ? `repository ${report.repo}` : `project ${report.project}`;
  const of = `of mapping ${name}`;
  if (error.code === 'GIT_HOST_UNREACHABLE')
    return `the git host at ${report.host === 'github' ? report.apiUrl : report.url} does not answer or is failing: docsync tries again; check ${key}.${report.host === 'github' ? 'apiUrl' : 'url'} ${of}`;
  if (report.tokenEnv === undefined) return githubAppHint(error, where, of);
  switch (error.httpStatus) {
    case 401:
      return `the git host refused the token: check the environment variable ${report.tokenEnv} (${key}.tokenEnv ${of}) and that the token has not expired`;
    case 403:
      return `the token in ${report.tokenEnv} may not write commit statuses of ${where}: give it that permission (GitHub: "Commit statuses: write"; GitLab: the api scope, Developer role)`;
    case 404:
      return `the git host has no ${where} this token can see: check ${key}.${report.host === 'github' ? 'repo' : 'project'} ${of}, and the token in ${report.tokenEnv}`;
    case 422:
    case 400:
      return `the git host refused the status of this commit: check that ${key} ${of} names the repository of its git.repo`;
    default:
      return ERROR_CODES[error.code];
  }
}

/** `report.github` without tokenEnv: the statuses go with the GitHub App's installation token. */
function githubAppHint(error: GitHostError, where: string, of: string): string {
  switch (error.httpStatus) {
    case 401:
      return `GitHub refused the GitHub App's installation token: check git.auth.githubApp ${of} (appId, installationId, the key)`;
    case 403:
      return `the GitHub App of git.auth.githubApp ${of} may not write commit statuses of ${where}: give the app the permission "Commit statuses: write" and accept it on the installation`;
    case 404:
      return `the GitHub App's installation sees no ${where}: check report.github.repo ${of}, and that the app is installed on that repository (git.auth.githubApp.installationId)`;
    case undefined:
      return `give report.github.tokenEnv ${of}, or a git.auth.githubApp whose token posts the statuses`;
    default:
      return `GitHub refused the status of this commit: check that report.github ${of} names the repository of its git.repo`;
  }
}
