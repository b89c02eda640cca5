import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

// The token is read from the environment the configuration is read with (parseConfig's), as `${VAR}`s are.
const TOKEN_ENV = `DOCSYNC_TEST_REPORT_TOKEN_${process.pid}`;
const ENV = { [TOKEN_ENV]: 'ghp_secret-of-the-test' };

function mapping(reportYaml: string): string {
  return `service: { baseUrl: "https://docs.example.com/v1", token: t }
mappings:
  - name: docs
    space: space_1
    git: { repo: ./repo, branch: main }
${reportYaml}`;
}

function problems(text: string): string[] {
  return configProblems(() => parseConfig(text, 'docsync.yaml', ENV));
}

describe('the report block of a mapping', () => {
  afterEach(() => {
    delete process.env[TOKEN_ENV];
  });

  it('reads a GitHub repository, its token from the variable it names, and GitHub.com by default', () => {
    const config = parseConfig(
      mapping(`    report: { github: { repo: acme/docs, tokenEnv: ${TOKEN_ENV} } }\n`),
      'docsync.yaml',
      ENV,
    );
    expect(config.mappings[0]?.report).toEqual({
      host: 'github',
      repo: 'acme/docs',
      apiUrl: 'https://api.github.com',
      tokenEnv: TOKEN_ENV,
      token: 'ghp_secret-of-the-test',
    });
  });

  it('reads a GitHub Enterprise API address and a GitLab project by id or by path', () => {
    const github = parseConfig(
      mapping(
        `    report: { github: { repo: acme/docs, tokenEnv: ${TOKEN_ENV}, apiUrl: "https://ghe.acme.test/api/v3/" } }\n`,
      ),
      'docsync.yaml',
      ENV,
    );
    expect(github.mappings[0]?.report).toMatchObject({ apiUrl: 'https://ghe.acme.test/api/v3' });
    const byId = parseConfig(
      mapping(
        `    report: { gitlab: { url: "https://gitlab.acme.test", project: 42, tokenEnv: ${TOKEN_ENV} } }\n`,
      ),
      'docsync.yaml',
      ENV,
    );
    expect(byId.mappings[0]?.report).toEqual({
      host: 'gitlab',
      url: 'https://gitlab.acme.test',
      project: '42',
      tokenEnv: TOKEN_ENV,
      token: 'ghp_secret-of-the-test',
    });
    const byPath = parseConfig(
      mapping(
        `    report: { gitlab: { url: "https://gitlab.acme.test", project: group/sub/docs, tokenEnv: ${TOKEN_ENV} } }\n`,
      ),
      'docsync.yaml',
      ENV,
    );
    expect(byPath.mappings[0]?.report).toMatchObject({ project: 'group/sub/docs' });
  });

  it('refuses a variable that is not set, naming the key, the variable and the line', () => {
    // Set in the process but not in the environment the configuration is read with: not read.
    process.env[TOKEN_ENV] = 'ghp_of-the-process';
    expect(
      configProblems(() =>
        parseConfig(
          mapping(`    report: { github: { repo: acme/docs, tokenEnv: ${TOKEN_ENV} } }\n`),
          'docsync.yaml',
          {},
        ),
      ),
    ).toEqual([
      `mappings[0].report.github.tokenEnv: environment variable ${TOKEN_ENV} is not set: set it to a token that may write commit statuses (docsync.yaml:6:52)`,
    ]);
  });

  it('refuses two hosts, none, a token written in place of a variable, a bad repository and an unknown key', () => {
    expect(
      problems(
        mapping(
          `    report:\n      github: { repo: acme/docs, tokenEnv: ${TOKEN_ENV} }\n      gitlab: { url: "https://gitlab.com", project: 1, tokenEnv: ${TOKEN_ENV} }\n`,
        ),
      ),
    ).toEqual([
      expect.stringMatching(
        /^mappings\[0\]\.report: give exactly one git host: github: \{repo, tokenEnv\} or gitlab: \{url, project, tokenEnv\}/,
      ),
    ]);
    expect(problems(mapping('    report: {}\n'))).toEqual([
      expect.stringMatching(/^mappings\[0\]\.report: give exactly one git host/),
    ]);
    expect(
      problems(mapping('    report: { github: { repo: acme/docs, tokenEnv: "ghp_abc-123" } }\n')),
    ).toEqual([
      expect.stringMatching(
        /^mappings\[0\]\.report\.github\.tokenEnv: name an environment variable, such as GITHUB_TOKEN \(not the token\)/,
      ),
    ]);
    expect(problems(mapping(`    report: { github: { repo: docs, tokenEnv: ${TOKEN_ENV} } }\n`))).toEqual([
      expect.stringMatching(/^mappings\[0\]\.report\.github\.repo: use owner\/name of the GitHub repository/),
    ]);
    expect(
      problems(
        mapping(`    report: { github: { repo: acme/docs, tokenEnv: ${TOKEN_ENV}, context: ci } }\n`),
      )[0],
    ).toMatch(/^mappings\[0\]\.report\.github\.context: unknown key/);
  });

  it('refuses an API address with credentials or that is not http(s), never echoing the credentials', () => {
    const found = problems(
      mapping(
        `    report: { github: { repo: acme/docs, tokenEnv: ${TOKEN_ENV}, apiUrl: "https://user:hunter2@ghe.acme.test/api/v3" } }\n`,
      ),
    );
    expect(found).toEqual([
      expect.stringMatching(
        /^mappings\[0\]\.report\.github\.apiUrl: use an http\(s\) address without credentials, query or fragment, such as https:\/\/github\.example\.com\/api\/v3/,
      ),
    ]);
    expect(found.join('\n')).not.toContain('hunter2');
    expect(
      problems(
        mapping(
          `    report: { gitlab: { url: "ftp://gitlab.acme.test", project: 1, tokenEnv: ${TOKEN_ENV} } }\n`,
        ),
      ),
    ).toEqual([expect.stringMatching(/^mappings\[0\]\.report\.gitlab\.url: use an http\(s\) address/)]);
    expect(
      problems(
        mapping(
          `    report: { gitlab: { url: "https://gitlab.com", project: "a b", tokenEnv: ${TOKEN_ENV} } }\n`,
        ),
      ),
    ).toEqual([
      expect.stringMatching(
        /^mappings\[0\]\.report\.gitlab\.project: use the numeric project id or its path/,
      ),
    ]);
  });
});
