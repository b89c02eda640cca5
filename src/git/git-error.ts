// The one error type of docsync's git layer: the command that failed (credentials removed), git's
// stderr (credentials removed, every line of it in the message: its last line alone, such as "and
// the repository exists.", says nothing) and whether trying again may help, from a rule table.
import { DocsyncError } from '../errors/docsync-error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';

/** What each code means: src/errors/error-codes.ts; which ones retry: GIT_RETRYABLE below. */
export const GIT_ERROR_CODES = [
  'GIT_FAILED',
  'GIT_NOT_FOUND',
  'GIT_AUTH',
  'GIT_NETWORK',
  'GIT_TIMEOUT',
  'GIT_ABORTED',
  'GIT_OUTPUT_INVALID',
  'GIT_UNAVAILABLE',
  'GIT_INVALID_INPUT',
  'GIT_PUSH_REJECTED',
  'GIT_LOCKED',
] as const satisfies readonly ErrorCode[];

export type GitErrorCode = (typeof GIT_ERROR_CODES)[number];

/** Whether a failure with this code may pass when the same work runs again later. */
export const GIT_RETRYABLE: Readonly<Record<GitErrorCode, boolean>> = {
  GIT_FAILED: false,
  GIT_NOT_FOUND: false,
  GIT_AUTH: false,
  GIT_NETWORK: true,
  GIT_TIMEOUT: true,
  // A job aborted by a shutdown runs again in the next process.
  GIT_ABORTED: true,
  GIT_OUTPUT_INVALID: false,
  GIT_UNAVAILABLE: false,
  GIT_INVALID_INPUT: false,
  // Read the branch again and build on its new tip.
  GIT_PUSH_REJECTED: true,
  // Another git command held a ref or the index (another process on the same data folder).
  GIT_LOCKED: true,
};

/**
 * How git's stderr (run with LC_ALL=C, so in English) maps to a code; the first match wins. Git
 * exits with 128 for nearly every failure, so its message is all there is to go on. Auth comes
 * first: `unable to access ... 403` is a refusal, not a network problem.
 */
export const GIT_STDERR_RULES: readonly { code: GitErrorCode; pattern: RegExp }[] = [
  {
    code: 'GIT_PUSH_REJECTED',
    pattern: /\[rejected\]|non-fast-forward|\(fetch first\)|stale info/i,
  },
  {
    code: 'GIT_LOCKED',
    pattern: /cannot lock ref|Unable to create '[^']*\.lock': File exists/i,
  },
  {
    code: 'GIT_AUTH',
    pattern:
      /Authentication failed|could not read (Username|Password)|Host key verification failed|terminal prompts disabled|Permission denied \(|HTTP Basic: Access denied|returned error: 40[13]\b|Invalid username or password/i,
  },
  {
    code: 'GIT_NOT_FOUND',
    pattern:
      /Repository not found|does not appear to be a git repository|returned error: 404\b|not a valid object name|unknown revision|bad object|bad revision|Not a valid commit name|couldn't find remote ref|no such ref/i,
  },
  {
    code: 'GIT_NETWORK',
    pattern:
      /Could not resolve host|Failed to connect|Couldn't connect|Connection (refused|reset|timed out|closed)|Operation timed out|early EOF|remote end hung up|RPC failed|returned error: 5\d\d\b|SSL|TLS|gnutls|Network is unreachable|No route to host|Could not read from remote repository|unable to access/i,
  },
];

/** GitCredentials' `source` and `setting` (git-credentials.ts). */
export interface CredentialsOrigin {
  source: string;
  setting: string;
}

export interface GitErrorInit {
  code: GitErrorCode;
  /** The git arguments, without the program name: `['fetch', '--prune', 'https://…']`. */
  args: readonly string[];
  /** What happened, in a few words: `exited with 128`, `timed out after 60000 ms`. */
  reason: string;
  stderr?: string;
  exitCode?: number | null;
  cause?: unknown;
}

const STDERR_TAIL_CHARS = 2000;
// Git's own options that take their value as the next argument: `--git-dir <dir> fetch`.
const OPTIONS_WITH_VALUE = new Set(['--git-dir', '--work-tree', '-c', '-C', '--namespace']);

export class GitError extends DocsyncError {
  declare readonly code: GitErrorCode;
  /** The command as it can be shown: `git fetch --prune https://***@host/x.git`. */
  readonly command: string;
  /** What git wrote to stderr (its end, when long), credentials removed; empty when it wrote none. */
  readonly stderr: string;
  readonly exitCode: number | null;
  /**
   * Where the credentials of a command that reached the remote came from (`git.auth`), set by the
   * mirror that ran it, so that a refusal's hint names the variable or file to fix. Never the secret.
   */
  credentials: CredentialsOrigin | undefined;

  constructor(init: GitErrorInit) {
    const command = ['git', ...init.args].map(redactUrlCredentials).join(' ');
    const stderr = stderrTail(init.stderr ?? '');
    const subcommand = subcommandOf(init.args);
    // Git wraps one sentence over several lines: joined with spaces, they read as git wrote them.
    const said = stderr.split('\n').join(' ');
    super(init.code, `git ${subcommand} ${init.reason}${said === '' ? '' : `: ${said}`}`, {
      retryable: GIT_RETRYABLE[init.code],
      ...(init.cause === undefined ? {} : { cause: init.cause }),
    });
    this.command = command;
    this.stderr = stderr;
    this.exitCode = init.exitCode ?? null;
    this.credentials = undefined;
  }
}

/** `fetch` in `--git-dir /x -c a=b fetch --prune`: the first argument that is neither option nor value. */
function subcommandOf(args: readonly string[]): string {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    if (OPTIONS_WITH_VALUE.has(arg)) index += 1;
    else if (!arg.startsWith('-')) return arg;
  }
  return 'command';
}

/** The code for a command that exited non-zero with `stderr`. */
export function classifyGitStderr(stderr: string): GitErrorCode {
  return GIT_STDERR_RULES.find((rule) => rule.pattern.test(stderr))?.code ?? 'GIT_FAILED';
}

/** The end of git's stderr, trimmed, credentials removed, progress lines (`\r`) collapsed. */
export function stderrTail(stderr: string): string {
  const lines = redactUrlCredentials(stderr)
    .split('\n')
    .map((line) => (line.split('\r').at(-1) ?? '').trimEnd())
    .filter((line) => line !== '');
  const tail = lines.join('\n');
  return tail.length > STDERR_TAIL_CHARS ? tail.slice(-STDERR_TAIL_CHARS) : tail;
}

export function isGitError(error: unknown, code?: GitErrorCode): error is GitError {
  return error instanceof GitError && (code === undefined || error.code === code);
}
