// Runs the git program: its environment (never a prompt, English messages, no inherited repository),
// a time limit and an AbortSignal for every command, and failures turned into GitErrors.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { classifyGitStderr, GitError, type GitErrorCode } from './git-error.js';

export interface GitCommandOptions {
  /** The full environment of the child (see gitEnvironment). */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Exit codes that are answers rather than failures (1 for `merge-base --is-ancestor`). */
  okExitCodes?: readonly number[];
  /** Stdout past this many bytes is a GIT_OUTPUT_INVALID failure. */
  maxOutputBytes?: number;
}

export interface GitResult {
  exitCode: number;
  stdout: Buffer;
}

// Variables that would point git at another repository than the one docsync names.
const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
];
const STDERR_KEEP_CHARS = 8192;
const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * The environment git runs in: `base` (where credentials come from: a credential helper's
 * configuration, GIT_ASKPASS, SSH_AUTH_SOCK) without repository overrides, with prompts turned off so
 * that a missing credential fails at once instead of waiting on a terminal, and C messages so that
 * GIT_STDERR_RULES can read them.
 */
export function gitEnvironment(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of REPOSITORY_VARIABLES) delete env[name];
  return { ...env, GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never', LC_ALL: 'C', LANGUAGE: 'C' };
}

/** A running git command whose stdout the caller reads as a stream. */
export class GitProcess {
  readonly stdout: Readable;
  readonly stdin: Writable;
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly exited: Promise<number | null>;
  private stderr = '';
  private failure: GitError | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly onAbort = (): void => {
    this.fail('GIT_ABORTED', 'aborted');
  };

  constructor(
    readonly args: readonly string[],
    private readonly options: GitCommandOptions,
  ) {
    // Its own process group, so that a kill reaches the helpers git starts (git-remote-https, ssh),
    // which would otherwise keep the pipes, and the command, open.
    this.child = spawn('git', [...args], {
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    this.stdout = this.child.stdout;
    this.stdin = this.child.stdin;
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_KEEP_CHARS);
    });
    // git may exit before reading all its input; the exit code tells what happened.
    this.child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        // spawn's own error carries the arguments (a URL with credentials): keep only its code.
        const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
        this.fail('GIT_UNAVAILABLE', `could not be started (${code})`);
        resolve(null);
      });
      this.child.once('close', (code) => resolve(code));
      // After a kill, the exit is enough: a helper that escaped the group may hold the pipes open.
      this.child.once('exit', (code) => {
        if (this.failure !== undefined) resolve(code);
      });
    });
    if (options.signal?.aborted) this.onAbort();
    else options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Starts the time limit: over a whole command, or over one wait for output (GitOutputReader). */
  startTimer(): void {
    this.stopTimer();
    this.timer = setTimeout(
      () => this.fail('GIT_TIMEOUT', `timed out after ${this.options.timeoutMs} ms`),
      this.options.timeoutMs,
    );
  }

  stopTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Kills git with this failure, unless it already failed; `finish` and readers then throw it. */
  fail(code: GitErrorCode, reason: string): GitError {
    this.failure ??= new GitError({ code, args: this.args, reason, stderr: this.stderr });
    this.stopTimer();
    this.kill();
    return this.failure;
  }

  /** The failure that ended the command early (timeout, abort, output), if any. */
  get failed(): GitError | undefined {
    return this.failure;
  }

  /** Resolves once git has exited, however it ended (finish tells how). */
  get ended(): Promise<void> {
    return this.exited.then(() => undefined);
  }

  /** Waits for git to exit and returns its exit code, or throws the GitError that ended it. */
  async finish(): Promise<number> {
    const exitCode = await this.exited;
    this.stopTimer();
    this.options.signal?.removeEventListener('abort', this.onAbort);
    if (this.failure !== undefined) throw this.failure;
    if (exitCode === null || !(exitCode === 0 || this.options.okExitCodes?.includes(exitCode))) {
      const code = exitCode === null ? 'GIT_FAILED' : classifyGitStderr(this.stderr);
      throw new GitError({
        code,
        args: this.args,
        reason: exitCode === null ? 'was killed' : `exited with ${exitCode}`,
        stderr: this.stderr,
        exitCode,
      });
    }
    return exitCode;
  }

  /** Stops git when the caller is done early (a consumer that breaks out of a stream). */
  close(): void {
    this.stopTimer();
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.kill();
  }

  private kill(): void {
    const { pid } = this.child;
    if (pid === undefined || this.child.exitCode !== null || this.child.signalCode !== null) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  }
}

/** Runs git to the end with its output in memory; for commands whose output is small. */
export async function runGit(args: readonly string[], options: GitCommandOptions): Promise<GitResult> {
  const git = new GitProcess(args, options);
  git.stdin.end();
  git.startTimer();
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of git.stdout) {
      const bytes: Buffer = chunk;
      size += bytes.length;
      if (size > maxBytes) throw git.fail('GIT_OUTPUT_INVALID', `printed more than ${maxBytes} bytes`);
      chunks.push(bytes);
    }
  } catch (error) {
    // A killed child ends its stdout with an error: the reason is the failure recorded.
    throw git.failed ?? error;
  }
  const exitCode = await git.finish();
  return { exitCode, stdout: Buffer.concat(chunks, size) };
}
