// The GitHub App's private key, read once when the daemon starts: from privateKeyFile, or the PEM
// text the configuration already read from privateKeyEnv. Anything but an RSA private key (a public
// key, a certificate, an SSH or EC key, a file that is no key at all) stops the start here, with the
// setting to fix, rather than every job later as a 401.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { GitAuth } from '../config/git-auth-schema.js';
import { GitHubAppError } from './github-app-error.js';

type AppKeySource = Extract<GitAuth, { kind: 'github-app' }>['privateKey'];

/** Where the key comes from, for messages: `the file /x.pem (git.auth.githubApp.privateKeyFile)`. */
export function describeKeySource(source: AppKeySource): { text: string; setting: string } {
  return 'file' in source
    ? { text: `the file ${source.file}`, setting: 'git.auth.githubApp.privateKeyFile' }
    : { text: `the variable ${source.env}`, setting: 'git.auth.githubApp.privateKeyEnv' };
}

export function readAppKey(source: AppKeySource, readFile = readFileSync): KeyObject {
  const { text, setting } = describeKeySource(source);
  let pem: string | Buffer;
  try {
    pem = 'file' in source ? readFile(source.file) : source.pem;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new GitHubAppError('GIT_AUTH_KEY_INVALID', `${text} cannot be read (${reason}): check ${setting}`, {
      setting,
      cause: error,
    });
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    // The cause is left out on purpose: OpenSSL's words may quote the start of the text.
    throw new GitHubAppError(
      'GIT_AUTH_KEY_INVALID',
      `${text} is not a private key in PEM form: give the .pem file GitHub gave for the app (${setting})`,
      { setting },
    );
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new GitHubAppError(
      'GIT_AUTH_KEY_INVALID',
      `${text} holds a ${key.asymmetricKeyType ?? 'non-asymmetric'} key, not the RSA key a GitHub App signs with: give the .pem file GitHub gave for the app (${setting})`,
      { setting },
    );
  return key;
}
