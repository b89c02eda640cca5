// The GitHub App's private key, read once when the daemon starts: from privateKeyFile, or the PEM
// text the configuration already read from privateKeyEnv. Anything but an RSA private key (a public
// key, a certificate, an SSH or EC key, a file that is no key at all) stops the start here, with the
// setting to fix, rather than every job later as a 401.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { GitAuth } from '../config/git-auth-schema.js';
import { EnvironmentError } from '../errors/environment-error.js';

type AppKeySource = Extract<GitAuth, { kind: 'github-app' }>['privateKey'];

/** Larger than any RSA key GitHub hands out (a 4096-bit PEM is about 3.3 KiB). */
const MAX_KEY_BYTES = 64 * 1024;

const GITHUB_KEY = 'give the .pem file GitHub made for the app (its settings, "Private keys")';

/** `cwd`: where a relative privateKeyFile starts, the folder docsync started in by default. */
export function readAppKey(source: AppKeySource, cwd = process.cwd()): KeyObject {
  const setting =
    'file' in source
      ? `git.auth.githubApp.privateKeyFile: ${source.file}`
      : `git.auth.githubApp.privateKeyEnv: the variable ${source.env}`;
  let pem: Buffer | string;
  try {
    pem = 'file' in source ? readFileSync(resolve(cwd, source.file)) : source.pem;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    throw keyError(
      `${setting} cannot be read (${code}): check the path, and that docsync's user may read it`,
      error,
    );
  }
  if (pem.length > MAX_KEY_BYTES)
    throw keyError(`${setting} is ${pem.length} bytes, too large for a key: ${GITHUB_KEY}`);
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    // No cause on purpose: OpenSSL's words about a text that is not a key may quote the text.
    throw keyError(
      `${setting} is not a private key (no readable "-----BEGIN RSA PRIVATE KEY-----" block): ${GITHUB_KEY}`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw keyError(
      `${setting} is an ${key.asymmetricKeyType ?? 'unknown'} key, not the RSA key GitHub Apps sign with: ${GITHUB_KEY}`,
    );
  return key;
}

function keyError(message: string, cause?: unknown): EnvironmentError {
  return new EnvironmentError('GIT_AUTH_KEY_INVALID', message, cause === undefined ? {} : { cause });
}
