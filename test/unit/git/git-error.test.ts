import { describe, expect, it } from 'vitest';
import { DocsyncError } from '../../../src/errors/docsync-error.js';
import {
  classifyGitStderr,
  GIT_ERROR_CODES,
  GIT_RETRYABLE,
  GitError,
  isGitError,
  stderrTail,
} from '../../../src/git/git-error.js';

describe('classifyGitStderr', () => {
  it.each([
    ["fatal: Authentication failed for 'https://host/x.git/'", 'GIT_AUTH'],
    ["fatal: could not read Username for 'https://host': terminal prompts disabled", 'GIT_AUTH'],
    ['git@host: Permission denied (publickey).', 'GIT_AUTH'],
    ["fatal: unable to access 'https://host/x.git/': The requested URL returned error: 403", 'GIT_AUTH'],
    ['remote: Repository not found.', 'GIT_NOT_FOUND'],
    ["fatal: '/tmp/x.git' does not appear to be a git repository", 'GIT_NOT_FOUND'],
    ["fatal: bad revision 'ffff'", 'GIT_NOT_FOUND'],
    ["fatal: unable to access 'https://host/x.git/': Could not resolve host: host", 'GIT_NETWORK'],
    [
      "fatal: unable to access 'https://127.0.0.1:9/x.git/': Failed to connect to 127.0.0.1 port 9",
      'GIT_NETWORK',
    ],
    ['fatal: the remote end hung up unexpectedly', 'GIT_NETWORK'],
    ["fatal: unable to access 'https://host/x.git/': The requested URL returned error: 502", 'GIT_NETWORK'],
    ['fatal: something else entirely', 'GIT_FAILED'],
    ['', 'GIT_FAILED'],
  ])('reads %j as %s', (stderr, code) => {
    expect(classifyGitStderr(stderr)).toBe(code);
  });

  it('retries network trouble, time-outs, a push the moved branch refused and a held lock, only', () => {
    const retryable = GIT_ERROR_CODES.filter((code) => GIT_RETRYABLE[code]);
    expect(retryable).toEqual([
      'GIT_NETWORK',
      'GIT_TIMEOUT',
      'GIT_ABORTED',
      'GIT_PUSH_REJECTED',
      'GIT_LOCKED',
    ]);
  });

  it('reads a ref another command holds as GIT_LOCKED', () => {
    expect(
      classifyGitStderr(
        "error: cannot lock ref 'refs/heads/main': is at c68d4b6d2a98ffd8de37e3908674d86edfc25272 but expected 54722ac07cc29a264c987913a4e2782049228893",
      ),
    ).toBe('GIT_LOCKED');
    expect(
      classifyGitStderr(
        "fatal: Unable to create '/data/git/m.git/refs/heads/main.lock': File exists.\n\nAnother git process seems to be running",
      ),
    ).toBe('GIT_LOCKED');
  });

  it('reads a refused push as GIT_PUSH_REJECTED, before any other rule', () => {
    expect(
      classifyGitStderr(
        " ! [rejected]        abc -> main (fetch first)\nerror: failed to push some refs to 'https://host/x.git'\nhint: Updates were rejected because the remote contains work",
      ),
    ).toBe('GIT_PUSH_REJECTED');
    expect(classifyGitStderr(' ! [rejected] main -> main (non-fast-forward)')).toBe('GIT_PUSH_REJECTED');
  });
});

describe('GitError', () => {
  it('names the command and every line of stderr, never a credential', () => {
    const error = new GitError({
      code: 'GIT_AUTH',
      args: ['--git-dir', '/data/m.git', 'fetch', '--prune', '--', 'https://user:secret@host/x.git'],
      reason: 'exited with 128',
      stderr: "warning: redirecting\nfatal: Authentication failed for 'https://user:secret@host/x.git/'\n",
      exitCode: 128,
    });
    expect(error).toBeInstanceOf(DocsyncError);
    expect(error.name).toBe('GitError');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "git fetch exited with 128: warning: redirecting fatal: Authentication failed for 'https://***@host/x.git/'",
    );
    expect(error.command).toBe('git --git-dir /data/m.git fetch --prune -- https://***@host/x.git');
    expect(`${error.message}${error.command}${error.stderr}`).not.toContain('secret');
    expect(error.exitCode).toBe(128);
    expect(isGitError(error, 'GIT_AUTH')).toBe(true);
    expect(isGitError(error, 'GIT_NETWORK')).toBe(false);
    expect(isGitError(new Error('x'))).toBe(false);
  });

  it('takes the retry decision from the code', () => {
    expect(new GitError({ code: 'GIT_TIMEOUT', args: ['fetch'], reason: 'timed out' }).retryable).toBe(true);
    expect(new GitError({ code: 'GIT_NOT_FOUND', args: ['fetch'], reason: 'x' }).retryable).toBe(false);
  });
});

describe('stderrTail', () => {
  it('keeps the last state of progress lines and drops blank ones', () => {
    expect(stderrTail('Receiving objects:  10%\rReceiving objects: 100%\n\nfatal: early EOF\n')).toBe(
      'Receiving objects: 100%\nfatal: early EOF',
    );
  });

  it('keeps only the end of a long stderr', () => {
    expect(stderrTail(`${'x'.repeat(5000)}\nlast`).length).toBe(2000);
  });
});
