// `git.auth` of a mapping: how docsync proves itself to a private repository, with every secret
// named, never written: a token in an environment variable (HTTPS), a GitHub App whose installation
// tokens docsync mints (HTTPS), or an SSH key with the host keys it must match. Files are read when
// the daemon starts (src/git/credentials-for.ts), variables when the configuration is read, so that
// one not set stops the start with its key and line.
import { z } from 'zod';
import { readConfigEnv } from './config-env.js';
import { withJsonSchemaHint } from './json-schema-hints.js';
import { envName, GITHUB_API_URL, httpBaseUrl } from './named-values.js';

/** The user name the big hosts accept beside a token (GitHub; GitLab and Gitea take any name). */
export const DEFAULT_TOKEN_USERNAME = 'x-access-token';

const file = z.string().min(1, 'give the path of a file');

/** A GitHub id: a positive number, written as a number or as digits. */
const githubId = z
  .union([z.int().positive(), z.string().regex(/^\d{1,20}$/, 'write the id as digits, such as 123456')])
  .transform(String);

const tokenAuth = z.strictObject({
  tokenEnv: envName,
  username: z.string().min(1).default(DEFAULT_TOKEN_USERNAME),
});

const githubAppAuth = z.strictObject({
  githubApp: z.strictObject({
    appId: githubId,
    installationId: githubId,
    /** The app's private key (PEM), as GitHub gives it to download. */
    privateKeyFile: file.optional(),
    /** The variable holding the PEM text itself. */
    privateKeyEnv: envName.optional(),
    /** GitHub Enterprise Server: `https://github.example.com/api/v3`. */
    apiUrl: httpBaseUrl('https://github.example.com/api/v3').default(GITHUB_API_URL),
  }),
});

const sshAuth = z.strictObject({
  sshKeyFile: file,
  /** The host keys the remote must show (`ssh-keyscan host > known_hosts`, then checked by a person). */
  knownHostsFile: file,
});

/** `git.auth` as the jobs use it: the kind, and the values read from the environment. */
export type GitAuth =
  | { kind: 'token'; tokenEnv: string; username: string; token: string }
  | {
      kind: 'github-app';
      appId: string;
      installationId: string;
      apiUrl: string;
      privateKey: { file: string } | { env: string; pem: string };
    }
  | { kind: 'ssh'; sshKeyFile: string; knownHostsFile: string };

const AUTH_SHAPES =
  'give one of { tokenEnv, username? }, { githubApp: { appId, installationId, privateKeyFile | privateKeyEnv } } or { sshKeyFile, knownHostsFile }';

export const gitAuthSchema = withJsonSchemaHint(
  z
    .unknown()
    .superRefine((value, ctx) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        ctx.addIssue({ code: 'custom', message: AUTH_SHAPES });
    })
    .pipe(
      z.union([tokenAuth, githubAppAuth, sshAuth], { error: AUTH_SHAPES }).transform((auth, ctx): GitAuth => {
        if ('tokenEnv' in auth) {
          const token = readConfigEnv(auth.tokenEnv)?.trim();
          if (token === undefined || token === '') {
            ctx.addIssue({
              code: 'custom',
              path: ['tokenEnv'],
              message: `environment variable ${auth.tokenEnv} is not set: set it to a token that may read the repository (and push to it, for space-to-git)`,
            });
            return z.NEVER;
          }
          return { kind: 'token', tokenEnv: auth.tokenEnv, username: auth.username, token };
        }
        if ('sshKeyFile' in auth) return { kind: 'ssh', ...auth };
        const app = auth.githubApp;
        const { appId, installationId, apiUrl: url } = app;
        if ((app.privateKeyFile === undefined) === (app.privateKeyEnv === undefined)) {
          ctx.addIssue({
            code: 'custom',
            path: ['githubApp'],
            message:
              'give the app key as privateKeyFile (a path) or privateKeyEnv (a variable), one of the two',
          });
          return z.NEVER;
        }
        if (app.privateKeyEnv !== undefined) {
          const pem = readConfigEnv(app.privateKeyEnv);
          if (pem === undefined || pem.trim() === '') {
            ctx.addIssue({
              code: 'custom',
              path: ['githubApp', 'privateKeyEnv'],
              message: `environment variable ${app.privateKeyEnv} is not set: set it to the app's private key (PEM)`,
            });
            return z.NEVER;
          }
          return {
            kind: 'github-app',
            appId,
            installationId,
            apiUrl: url,
            privateKey: { env: app.privateKeyEnv, pem },
          };
        }
        return {
          kind: 'github-app',
          appId,
          installationId,
          apiUrl: url,
          privateKey: { file: app.privateKeyFile ?? '' },
        };
      }),
    ),
  { as: z.union([tokenAuth, githubAppAuth, sshAuth]) },
);

/** Whether `repo` is reached over HTTP(S), where a token is given; else SSH (`ssh://`, `git@host:path`) or a path. */
export function remoteTransport(repo: string): 'http' | 'ssh' | 'local' {
  if (/^https?:\/\//i.test(repo)) return 'http';
  if (/^ssh:\/\//i.test(repo) || /^(git\+ssh|ssh\+git):\/\//i.test(repo)) return 'ssh';
  // scp-like `user@host:path`, `host:path`: a colon before any slash, not a Windows drive letter.
  if (/^[^/:]{2,}:/.test(repo) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(repo)) return 'ssh';
  return 'local';
}

/** What is wrong with `auth` for a remote at `repo`, or undefined: a token needs HTTPS, a key SSH. */
export function gitAuthProblem(repo: string, auth: GitAuth): string | undefined {
  const transport = remoteTransport(repo);
  if (auth.kind === 'ssh') {
    return transport === 'ssh'
      ? undefined
      : 'an SSH key is for an SSH remote (ssh://git@host/owner/repo.git or git@host:owner/repo.git): write git.repo so, or use tokenEnv for HTTPS';
  }
  if (transport !== 'http')
    return `a ${auth.kind === 'token' ? 'token' : 'GitHub App'} is for an HTTPS remote (https://host/owner/repo.git): write git.repo so, or use sshKeyFile for SSH`;
  const url = new URL(repo);
  if (url.username !== '' || url.password !== '')
    return 'git.repo carries credentials in its URL and git.auth gives others: take them out of the URL (docsync hands git the token itself)';
  return undefined;
}

/** For a `git` block's superRefine: `auth` fits `repo`'s transport. */
export function checkGitAuth(git: { repo: string; auth?: GitAuth | undefined }, ctx: z.RefinementCtx): void {
  if (git.auth === undefined) return;
  const problem = gitAuthProblem(git.repo, git.auth);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', path: ['auth'], message: problem });
}

/**
 * Mappings of one repository share one mirror and so one way in: the same `git.auth` (or none) for
 * all of them, else the second is refused with the first named.
 */
export function checkSharedRepoAuth(
  mappings: readonly ({ git: { repo: string; auth?: GitAuth | undefined } } | undefined)[],
  ctx: Pick<z.RefinementCtx, 'addIssue'>,
): void {
  const first = new Map<string, { index: number; auth: string }>();
  mappings.forEach((mapping, index) => {
    if (mapping === undefined) return;
    const auth = JSON.stringify(mapping.git.auth ?? null);
    const seen = first.get(mapping.git.repo);
    if (seen === undefined) first.set(mapping.git.repo, { index, auth });
    else if (seen.auth !== auth)
      ctx.addIssue({
        code: 'custom',
        path: ['mappings', index, 'git', 'auth'],
        message: `mappings[${seen.index}] reads the same repository with another git.auth: give every mapping of one repository the same git.auth`,
      });
  });
}
