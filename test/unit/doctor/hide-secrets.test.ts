import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configSecrets, hideSecrets } from '../../../src/doctor/hide-secrets.js';

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAsecretkeybody\n-----END RSA PRIVATE KEY-----';
const ENV = { DOCS_GIT_TOKEN: 'ghp_token-of-the-repo', APP_KEY: `${PEM}\n` };

const config = parseConfig(
  `service: { baseUrl: "https://docs.example.com/v1", token: service-token-1234 }
mappings:
  - { name: a, space: s1, git: { repo: "https://git.acme.test/a.git", branch: main, auth: { tokenEnv: DOCS_GIT_TOKEN } } }
  - { name: b, space: s2, git: { repo: "https://github.com/acme/b.git", branch: main, auth: { githubApp: { appId: 1, installationId: 2, privateKeyEnv: APP_KEY } } } }
`,
  'docsync.yaml',
  ENV,
);

describe("doctor's findings", () => {
  it("never print a repository's token or a GitHub App's key given by variable", () => {
    const [finding] = hideSecrets(
      [
        {
          check: 'repository',
          subject: 'a',
          status: 'fail',
          message: `git said: ${ENV.DOCS_GIT_TOKEN} refused; key ${PEM}`,
        },
      ],
      configSecrets(config),
    );
    expect(finding?.message).toBe('git said: *** refused; key ***');
  });
});
