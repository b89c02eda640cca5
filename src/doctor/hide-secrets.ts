// The last guard before a finding is printed or logged: the configuration's secrets, wherever a
// message may have picked one up (a service's error text, git's output), and credentials in URLs.
import type { Config } from '../config/config-schema.js';
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
    ...[...config.mappings, ...config.branchMappings].map((mapping) =>
      mapping.git.auth?.kind === 'token' ? mapping.git.auth.token : undefined,
    ),
    ...config.notify.flatMap((hook) => [hook.secret, hook.url]),
  ].filter((secret): secret is string => secret !== undefined && secret !== '');
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
