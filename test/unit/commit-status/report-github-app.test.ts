// `report.github` without tokenEnv: allowed only when the mapping's git.auth is a GitHub App, whose
// installation token posts the statuses; any other mapping is told to give the variable.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

function config(auth: string, report: string): string {
  return `service: { baseUrl: "https://docs.example.com/v1", token: t }
mappings:
  - name: docs
    space: space_1
    git: { repo: "https://github.com/acme/docs.git", branch: main${auth} }
    report: ${report}
`;
}

const APP = ', auth: { githubApp: { appId: 123456, installationId: 789, privateKeyFile: app.pem } }';

describe('report.github beside a GitHub App', () => {
  it('takes report.github without tokenEnv when git.auth is a GitHub App', () => {
    const parsed = parseConfig(config(APP, '{ github: { repo: acme/docs } }'), 'docsync.yaml', {});
    expect(parsed.mappings[0]?.report).toEqual({
      host: 'github',
      repo: 'acme/docs',
      apiUrl: 'https://api.github.com',
    });
  });

  it('refuses report.github without tokenEnv for a mapping without a GitHub App, naming the key', () => {
    const token = ', auth: { tokenEnv: DOCSYNC_TEST_GIT_TOKEN }';
    const env = { DOCSYNC_TEST_GIT_TOKEN: 'ghp_git' };
    for (const auth of ['', token])
      expect(
        configProblems(() =>
          parseConfig(config(auth, '{ github: { repo: acme/docs } }'), 'docsync.yaml', env),
        ),
      ).toEqual([
        expect.stringMatching(
          /^mappings\[0\]\.report\.github\.tokenEnv: give tokenEnv, .*only a mapping whose git\.auth is a githubApp may leave it out/,
        ),
      ]);
  });

  it('still needs tokenEnv on GitLab, GitHub App or not', () => {
    expect(
      configProblems(() =>
        parseConfig(config(APP, '{ gitlab: { url: "https://gitlab.com", project: 1 } }'), 'docsync.yaml', {}),
      ),
    ).toEqual([expect.stringMatching(/^mappings\[0\]\.report\.gitlab\.tokenEnv: /)]);
  });
});
