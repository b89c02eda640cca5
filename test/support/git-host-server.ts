// A git host's commit status endpoints on 127.0.0.1, port 0, answering as GitHub's and GitLab's
// public REST documentation describes, and recording every call:
//   GitHub  POST /repos/{owner}/{repo}/statuses/{sha}: `Authorization: Bearer <token>`; 201 with the
//           status; 401 "Bad credentials"; 404 for a repository the token cannot see; 422
//           "Validation Failed" for a state outside pending|success|failure|error, a description past
//           140 characters or a sha that is not a commit id.
//   GitLab  POST /api/v4/projects/{id}/statuses/{sha}: `PRIVATE-TOKEN: <token>`; 201 with the
//           status; 401 "401 Unauthorized"; 404 "404 Project Not Found"; 400 for a state outside
//           pending|running|success|failed|canceled (GitLab's parameter validation answers 400, not 422),
//           and 400 "Cannot transition status via :enqueue from :pending" for a pending (or running)
//           status posted again in the same state, as GitLab's state machine does; a finished one
//           (success, failed) is replaced by a new status.
// Closed after the file (or the test that made it).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeAfter } from './close-after.js';

export interface GitHostCall {
  host: 'github' | 'gitlab';
  /** `owner/name` (GitHub) or the project id or path, decoded (GitLab). */
  repo: string;
  sha: string;
  /** The token the call carried, as sent. */
  token: string | undefined;
  body: Record<string, unknown>;
  /** What the server answered. */
  status: number;
}

export interface GitHostServer {
  origin: string;
  /** GitHub's API base for `report.github.apiUrl` (as on GitHub Enterprise: `<origin>/api/v3`). */
  githubApiUrl: string;
  /** The instance address for `report.gitlab.url`. */
  gitlabUrl: string;
  calls: GitHostCall[];
  /** The calls that were taken (201), in order. */
  posted(): GitHostCall[];
  /** Answers the next `count` calls with `status` (a 5xx, a 429) before taking calls again. */
  failNext(count: number, status: number): void;
}

export interface GitHostOptions {
  /** The tokens the host accepts. */
  tokens: readonly string[];
  /** GitHub repositories (`owner/name`) and GitLab projects (ids or paths) that exist. */
  repos: readonly string[];
}

const GITHUB_STATES = new Set(['pending', 'success', 'failure', 'error']);
const GITLAB_STATES = new Set(['pending', 'running', 'success', 'failed', 'canceled']);
const GITHUB_PATH = /^\/api\/v3\/repos\/([^/]+\/[^/]+)\/statuses\/([^/]+)$/;
const GITLAB_PATH = /^\/api\/v4\/projects\/([^/]+)\/statuses\/([^/]+)$/;

interface Answer {
  status: number;
  body: unknown;
}

export async function startGitHostServer(options: GitHostOptions): Promise<GitHostServer> {
  const calls: GitHostCall[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  let nextId = 1;
  /** GitLab: the state of each status (project, sha, name) not finished yet. */
  const unfinished = new Map<string, string>();
  const server = createServer((request, response) => {
    void readJson(request).then((body) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const github = GITHUB_PATH.exec(path);
      const gitlab = GITLAB_PATH.exec(path);
      let answer: Answer;
      if (request.method !== 'POST' || (github === null && gitlab === null)) {
        answer = { status: 404, body: { message: 'Not Found' } };
      } else {
        const host = github === null ? 'gitlab' : 'github';
        const match = (github ?? gitlab) as RegExpExecArray;
        const repo = decodeURIComponent(match[1] ?? '');
        const sha = match[2] ?? '';
        const token =
          host === 'github'
            ? /^(?:Bearer|token) (.+)$/.exec(request.headers.authorization ?? '')?.[1]
            : (request.headers['private-token'] as string | undefined);
        if (failures.count > 0) {
          failures = { ...failures, count: failures.count - 1 };
          answer = { status: failures.status, body: { message: 'Server Error' } };
        } else
          answer =
            host === 'github'
              ? githubAnswer(options, repo, sha, token, body, nextId)
              : gitlabAnswer(options, repo, sha, token, body, nextId, unfinished);
        if (answer.status === 201) nextId += 1;
        calls.push({ host, repo, sha, token, body: body ?? {}, status: answer.status });
      }
      response
        .writeHead(answer.status, { 'content-type': 'application/json' })
        .end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfter(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    githubApiUrl: `${origin}/api/v3`,
    gitlabUrl: origin,
    calls,
    posted: () => calls.filter((call) => call.status === 201),
    failNext(count, status) {
      failures = { count, status };
    },
  };
}

function githubAnswer(
  options: GitHostOptions,
  repo: string,
  sha: string,
  token: string | undefined,
  body: Record<string, unknown> | undefined,
  id: number,
): Answer {
  if (token === undefined || !options.tokens.includes(token))
    return {
      status: 401,
      body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
    };
  if (!options.repos.includes(repo))
    return {
      status: 404,
      body: {
        message: 'Not Found',
        documentation_url: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
      },
    };
  const invalid = (field: string, message: string): Answer => ({
    status: 422,
    body: {
      message: 'Validation Failed',
      errors: [{ resource: 'Status', code: 'custom', field, message }],
      documentation_url: 'https://docs.github.com/rest/commits/statuses#create-a-commit-status',
    },
  });
  if (!/^[0-9a-f]{40}$/.test(sha))
    return { status: 422, body: { message: `No commit found for SHA: ${sha}` } };
  if (body === undefined || typeof body.state !== 'string' || !GITHUB_STATES.has(body.state))
    return invalid('state', 'state is not included in the list');
  if (typeof body.description === 'string' && body.description.length > 140)
    return invalid('description', 'description is too long (maximum is 140 characters)');
  const at = new Date().toISOString();
  return {
    status: 201,
    body: {
      url: `https://api.github.com/repos/${repo}/statuses/${sha}`,
      avatar_url: 'https://github.com/images/error/hubot_happy.gif',
      id,
      node_id: `MDY6U3RhdHVz${id}`,
      state: body.state,
      description: body.description ?? null,
      target_url: body.target_url ?? null,
      context: body.context ?? 'default',
      created_at: at,
      updated_at: at,
      creator: { login: 'docsync-bot', id: 1, type: 'Bot' },
    },
  };
}

function gitlabAnswer(
  options: GitHostOptions,
  project: string,
  sha: string,
  token: string | undefined,
  body: Record<string, unknown> | undefined,
  id: number,
  unfinished: Map<string, string>,
): Answer {
  if (token === undefined || !options.tokens.includes(token))
    return { status: 401, body: { message: '401 Unauthorized' } };
  if (!options.repos.includes(project)) return { status: 404, body: { message: '404 Project Not Found' } };
  if (body === undefined || typeof body.state !== 'string' || !GITLAB_STATES.has(body.state))
    return { status: 400, body: { error: 'state does not have a valid value' } };
  const key = `${project}/${sha}/${String(body.name ?? body.context ?? 'default')}`;
  const current = unfinished.get(key);
  if (current !== undefined && current === body.state)
    return {
      status: 400,
      body: {
        message: `Cannot transition status via :${current === 'pending' ? 'enqueue' : 'run'} from :${current} (Reason(s): Status cannot transition via "${current === 'pending' ? 'enqueue' : 'run'}")`,
      },
    };
  if (body.state === 'pending' || body.state === 'running') unfinished.set(key, body.state);
  else unfinished.delete(key);
  const at = new Date().toISOString();
  return {
    status: 201,
    body: {
      id,
      sha,
      ref: 'main',
      status: body.state,
      name: body.name ?? body.context ?? 'default',
      target_url: body.target_url ?? null,
      description: body.description ?? null,
      created_at: at,
      started_at: null,
      finished_at: body.state === 'success' || body.state === 'failed' ? at : null,
      allow_failure: false,
      coverage: null,
      author: { id: 1, username: 'docsync-bot', name: 'docsync', state: 'active' },
    },
  };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
