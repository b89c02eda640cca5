// What to check or do about a failure, kept next to its code and message wherever /status, the
// status page and `docsync status` show it: the setting most likely wrong, named by its key, else
// what the code means (src/errors/error-codes.ts). Pure: the error and what the job was about come in.
import { ApiError } from '../api/api-error.js';
import { ArtifactStorageError } from '../artifacts/artifact-storage-error.js';
import { artifactStorageHint } from '../artifacts/artifact-storage-hint.js';
import { GitHostError } from '../commit-status/git-host-error.js';
import { gitHostHint } from '../commit-status/git-host-hint.js';
import type { GitHostReport } from '../commit-status/report-config-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { ERROR_CODES } from '../errors/error-codes.js';
import { credentialsHint } from '../git/credentials-hint.js';
import { GitError } from '../git/git-error.js';
import { GitHubAppError } from '../github-app/github-app-error.js';
import { OpenApiSourceError, type SourceSetting } from '../openapi/openapi-source-error.js';

/** What the failed job was about: a mapping (its name and space) or an OpenAPI spec. */
export interface FailureSubject {
  /** A mapping, with the git host its commit statuses go to when it reports them. */
  mapping?: { name: string; space: string; report?: GitHostReport | undefined } | undefined;
  spec?: { org: string; slug: string } | undefined;
}

/** Socket codes that mean the host has no address at all: the name in the URL is wrong. */
const UNKNOWN_HOST = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

export function failureHint(error: unknown, subject: FailureSubject = {}): string {
  if (error instanceof ApiError) return apiHint(error, subject) ?? ERROR_CODES[error.code];
  if (error instanceof GitError) return gitHint(error, subject) ?? ERROR_CODES[error.code];
  if (error instanceof GitHubAppError) return githubAppHint(error, subject);
  if (error instanceof GitHostError && subject.mapping?.report !== undefined)
    return gitHostHint(error, subject.mapping.name, subject.mapping.report);
  if (error instanceof ArtifactStorageError) return artifactStorageHint(error);
  if (error instanceof OpenApiSourceError && error.setting !== undefined)
    return sourceHint(error.setting, subject);
  return ERROR_CODES[error instanceof DocsyncError ? error.code : 'FAILED'];
}

function apiHint(error: ApiError, subject: FailureSubject): string | undefined {
  if (error.hasStatus(401))
    return 'the service refused the token: check service.token (and the environment variable it is read from)';
  if (error.hasStatus(403))
    return 'the token may not do this: check service.token and its role in the space or organization';
  const { mapping, spec } = subject;
  if (error.hasStatus(404) && mapping !== undefined && isUnder(error.path, `/spaces/${mapping.space}`))
    return `the service has no space ${mapping.space} this token can see: check space of mapping ${mapping.name}`;
  if (error.hasStatus(404) && spec !== undefined && isUnder(error.path, `/orgs/${spec.org}`))
    return `the service has no organization ${spec.org} this token can see: check org of spec ${spec.org}/${spec.slug}`;
  if (error.code === 'API_NETWORK_ERROR')
    return UNKNOWN_HOST.has(error.systemCode ?? '')
      ? 'the host of service.baseUrl has no address (DNS): check service.baseUrl'
      : 'the service does not answer at service.baseUrl: check the address, and that the service runs';
  if (error.code === 'API_TIMEOUT')
    return 'the service at service.baseUrl answers too slowly: check it, or raise service.timeout';
  if (error.code === 'API_HTTP_ERROR' && (error.status === 429 || error.status >= 500))
    return 'the service is overloaded or failing: docsync tries again; check the service itself';
  return undefined;
}

/**
 * Space-level requests only: `/spaces/s` and `/spaces/s/content`, not a change request's
 * `/spaces/s/change-requests/cr`, whose 404 means that change request is gone.
 */
function isUnder(path: string, prefix: string): boolean {
  return (path === prefix || path.startsWith(`${prefix}/`)) && !path.includes('/change-requests/');
}

function gitHint(error: GitError, subject: FailureSubject): string | undefined {
  const of = subject.mapping === undefined ? '' : ` of mapping ${subject.mapping.name}`;
  const refused = credentialsHint(error, of);
  if (refused !== undefined) return refused;
  switch (error.code) {
    case 'GIT_AUTH':
      return `the git remote refused the credentials: check git.repo${of} (a token in its URL, or git's credential helper)`;
    case 'GIT_NOT_FOUND':
      return `check git.repo and git.branch${of}: git's own words above say which is missing`;
    case 'GIT_NETWORK':
      return `the host of git.repo${of} cannot be reached: check the address and the network`;
    default:
      return undefined;
  }
}

/** A GitHub App refused its installation token: the part of `git.auth.githubApp` to check. */
function githubAppHint(error: GitHubAppError, subject: FailureSubject): string {
  const key = `git.auth.githubApp${subject.mapping === undefined ? '' : ` of mapping ${subject.mapping.name}`}`;
  if (error.code === 'GITHUB_APP_UNREACHABLE')
    return `GitHub's API does not answer for installation tokens: docsync tries again; check ${key}.apiUrl and the network`;
  switch (error.httpStatus) {
    case 401:
      return `GitHub refused the app's signed token: check that ${key}.privateKeyFile (or privateKeyEnv) is the key of ${key}.appId, and that this machine's clock is right`;
    case 404:
      return `GitHub knows no such installation: check ${key}.installationId and appId, and that the app is installed on the repository`;
    case 403:
      return `GitHub refused the installation a token: check that it is not suspended and that the app may read the repository (${key}.installationId)`;
    default:
      return ERROR_CODES[error.code];
  }
}

/** A spec's source past a limit or its root: the key of the spec that lets it through. */
function sourceHint(setting: SourceSetting, subject: FailureSubject): string {
  const of = subject.spec === undefined ? 'of the spec' : `of spec ${subject.spec.org}/${subject.spec.slug}`;
  switch (setting) {
    case 'maxBytes':
      return `the document is larger than the spec allows: raise maxBytes ${of}, or make it smaller`;
    case 'maxRefFiles':
      return `its $refs name more files than the spec allows: raise maxRefFiles ${of}`;
    case 'root':
      return `a $ref leaves the folder the spec may read: widen source.root ${of}, or move the file`;
  }
}
