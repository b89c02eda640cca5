// The last guard before a finding is printed or logged: the configuration's secrets, wherever a
// message may have picked one up (a service's error text, git's output), and credentials in URLs.
import type { Config } from '../config/config-schema.js';
import type { GitAuth } from '../config/git-auth-schema.js';
import { redactUrlCredentials } from '../log/redact-url-credentials.js';
import type { Finding } from './doctor-finding.js';

const HIDDEN = '***';

export function configSecrets(config: Config): string[] {
  return [
    config.service?.token,
    config.http.token,
    config.http.artifactSecret,
    config.hooks.secret,
    config.hooks.gitlabToken,
    ...config.mappings.map((mapping) => mapping.report?.token),
    ...[...config.mappings, ...config.branchMappings].map((mapping) => authSecret(mapping.git.auth)),
    ...config.notify.flatMap((hook) => [hook.secret, hook.url]),
  ].filter((secret): secret is string => secret !== undefined && secret !== '');
}

/** The secret a `git.auth` holds once read: a token, or a GitHub App's key given by variable. */
function authSecret(auth: GitAuth | undefined): string | undefined {
  if (auth?.kind === 'token') return auth.token;
  if (auth?.kind === 'github-app' && 'pem' in auth.privateKey) return auth.privateKey.pem.trim();
  return undefined;
}

export function hideSecrets(findings: readonly Finding[], secrets: readonly string[]): Finding[] {
  // Longest first: a secret that contains another is hidden whole.
  const sorted = [...secrets].sort((a, b) => b.length - a.length);
  const clean = (text: string) => {
    let out = redactUrlCredentials(text);
    for (const secret of sorted) out = out.replaceAll(secret, HIDDEN);
    return out;
  };
  return findings.map((finding) => ({
    ...finding,
    message: clean(finding.message),
    ...(finding.subject === undefined ? {} : { subject: clean(finding.subject) }),
    ...(finding.hint === undefined ? {} : { hint: clean(finding.hint) }),
    ...(finding.details === undefined ? {} : { details: finding.details.map(clean) }),
  }));
}
