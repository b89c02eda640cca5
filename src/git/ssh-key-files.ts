// The files of `git.auth: { sshKeyFile, knownHostsFile }`, checked before git needs them: ssh's own
// answer to a bad key ("Load key ...: invalid format", or a warning about permissions followed by
// "Permission denied (publickey)") reads as a refused key on the server's side, not as a file to fix.
import { readFileSync, statSync } from 'node:fs';
import { EnvironmentError } from '../errors/environment-error.js';

export interface SshKeyFiles {
  keyFile: string;
  knownHostsFile: string;
}

/** The first line of a private key in a format ssh reads: OpenSSH's own, or PEM (PKCS#1, SEC1, PKCS#8). */
const PRIVATE_KEY_HEADER = /^-----BEGIN (OPENSSH |RSA |EC |DSA |ENCRYPTED )?PRIVATE KEY-----$/m;
const PUBLIC_KEY = /^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-\S+) AAAA/;
/** Larger than any private key ssh reads (an RSA key of 16384 bits is about 12 KiB). */
const MAX_KEY_BYTES = 64 * 1024;

/** Throws a GIT_AUTH_KEY_INVALID EnvironmentError naming the setting and what to do. */
export function checkSshKeyFiles(files: SshKeyFiles, uid: number | undefined = process.getuid?.()): void {
  const key = readSetting(files.keyFile, 'git.auth.sshKeyFile');
  const problem = keyProblem(key.text, key.mode, key.owner === uid);
  if (problem !== undefined) throw keyError(`git.auth.sshKeyFile: ${files.keyFile} ${problem}`);
  const knownHosts = readSetting(files.knownHostsFile, 'git.auth.knownHostsFile');
  if (!knownHosts.text.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('#')))
    throw keyError(
      `git.auth.knownHostsFile: ${files.knownHostsFile} holds no host key: write the remote's keys into it (ssh-keyscan -p PORT HOST, then check them against the host's published fingerprints)`,
    );
}

/**
 * What is wrong with a private key file's text and mode, or undefined. Like ssh, whose rule this is,
 * only a file of docsync's own user is refused for its mode (a root-owned Secret volume is not).
 */
export function keyProblem(text: string, mode: number, ownFile: boolean): string | undefined {
  if (PUBLIC_KEY.test(text.trimStart()))
    return 'is a public key: give the private key (the file without .pub)';
  if (!PRIVATE_KEY_HEADER.test(text))
    return 'is not a private key (no "-----BEGIN ... PRIVATE KEY-----" line): give the file ssh-keygen wrote, such as id_ed25519';
  if (ownFile && (mode & 0o077) !== 0)
    return `can be read by other users (mode ${(mode & 0o777).toString(8).padStart(4, '0')}), and ssh refuses such a key: chmod 600 it, or give its Kubernetes Secret volume defaultMode: 0400`;
  return undefined;
}

function readSetting(path: string, setting: string): { text: string; mode: number; owner: number } {
  try {
    const stats = statSync(path);
    if (!stats.isFile())
      throw keyError(`${setting}: ${path} is not a file: give the path of the file itself`);
    if (stats.size > MAX_KEY_BYTES)
      throw keyError(`${setting}: ${path} is ${stats.size} bytes, too large for a key file: check the path`);
    return { text: readFileSync(path, 'utf8'), mode: stats.mode, owner: stats.uid };
  } catch (error) {
    if (error instanceof EnvironmentError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw keyError(
      `${setting}: ${path} cannot be read (${code}): check the path, and that docsync's user may read it`,
      error,
    );
  }
}

function keyError(message: string, cause?: unknown): EnvironmentError {
  return new EnvironmentError('GIT_AUTH_KEY_INVALID', message, cause === undefined ? {} : { cause });
}
