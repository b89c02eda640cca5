// `git.auth: { sshKeyFile, knownHostsFile }`: the ssh command git runs for the remote, built by
// docsync so that it offers that key alone, trusts the host keys of that file alone and never asks
// (a changed host key or a key with a passphrase is a failure, not a prompt no one answers).
import { resolve } from 'node:path';
import type { GitAuth } from '../config/git-auth-schema.js';
import type { GitCredentials } from './git-credentials.js';
import { checkSshKeyFiles } from './ssh-key-files.js';

export type SshAuth = Extract<GitAuth, { kind: 'ssh' }>;

/**
 * The credentials of an SSH remote. The files are checked now (the daemon's start, doctor), so that
 * a missing or unprotected key stops the start with its setting rather than failing every fetch.
 * Relative paths are relative to `cwd`, where docsync started.
 */
export function sshCredentials(auth: SshAuth, cwd: string = process.cwd()): GitCredentials {
  const keyFile = resolve(cwd, auth.sshKeyFile);
  const knownHostsFile = resolve(cwd, auth.knownHostsFile);
  checkSshKeyFiles({ keyFile, knownHostsFile });
  const variables = {
    GIT_SSH_COMMAND: sshCommand(keyFile, knownHostsFile),
    // Tells git the options it may pass (-p for a port) without probing the command.
    GIT_SSH_VARIANT: 'ssh',
  };
  return {
    environment: () => Promise.resolve(variables),
    source: `the SSH key ${keyFile} (git.auth.sshKeyFile)`,
    setting: 'git.auth.sshKeyFile',
  };
}

/**
 * The GIT_SSH_COMMAND git runs through the shell: the key as the only identity (not the agent's,
 * not ~/.ssh's defaults), the host keys of `knownHostsFile` as the only ones trusted, and no
 * question asked.
 */
export function sshCommand(keyFile: string, knownHostsFile: string): string {
  return [
    'ssh',
    // IdentityFile as an option, not -i: -i looks the path up before expanding its % tokens.
    '-o',
    shellQuote(`IdentityFile=${sshOptionValue(keyFile)}`),
    '-o',
    'IdentitiesOnly=yes',
    '-o',
    shellQuote(`UserKnownHostsFile=${sshOptionValue(knownHostsFile)}`),
    '-o',
    'GlobalKnownHostsFile=/dev/null',
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    'PasswordAuthentication=no',
  ].join(' ');
}

/**
 * A path as the value of an `-o` option, which ssh splits at spaces as a line of its config file:
 * in double quotes, with `\`, `"` and `'` escaped by a backslash, and `%` written `%%` (ssh expands
 * `%` tokens in both files).
 */
function sshOptionValue(path: string): string {
  return `"${path.replaceAll('%', '%%').replace(/["'\\]/g, '\\$&')}"`;
}

/** `text` as one word of a POSIX shell: single quotes, each `'` closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
