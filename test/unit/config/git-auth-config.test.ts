import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

// Variables are read from the environment the configuration is read with (parseConfig's).
const TOKEN_ENV = 'DOCS_GIT_TOKEN';
const ENV = { [TOKEN_ENV]: 'ghp_secret-of-the-test', APP_KEY: '-----BEGIN PRIVATE KEY-----\nabc\n' };

function config(mappings: string, extra = ''): string {
  return `service: { baseUrl: "https://docs.example.com/v1", token: t }
${extra}mappings:
${mappings}`;
}

const mapping = (name: string, space: string, git: string) =>
  `  - { name: ${name}, space: ${space}, git: { ${git} } }\n`;

function problems(text: string, env: Record<string, string> = ENV): string[] {
  return configProblems(() => parseConfig(text, 'docsync.yaml', env));
}

describe('git.auth of a mapping', () => {
  it('reads a token from the variable it names, with the user name the big hosts accept', () => {
    const read = parseConfig(
      config(
        mapping(
          'docs',
          's1',
          `repo: "https://git.acme.test/docs.git", branch: main, auth: { tokenEnv: ${TOKEN_ENV} }`,
        ),
      ),
      'docsync.yaml',
      ENV,
    );
    expect(read.mappings[0]?.git.auth).toEqual({
      kind: 'token',
      tokenEnv: TOKEN_ENV,
      username: 'x-access-token',
      token: 'ghp_secret-of-the-test',
    });
  });

  it('reads a GitHub App with its key from a file or a variable, ids written as numbers or digits', () => {
    const read = parseConfig(
      config(
        mapping(
          'docs',
          's1',
          'repo: "https://github.com/acme/docs.git", branch: main, auth: { githubApp: { appId: 12, installationId: "34", privateKeyEnv: APP_KEY } }',
        ) +
          mapping(
            'site',
            's2',
            'repo: "https://ghe.acme.test/acme/site.git", branch: main, auth: { githubApp: { appId: "5", installationId: 6, privateKeyFile: app.pem, apiUrl: "https://ghe.acme.test/api/v3/" } }',
          ),
      ),
      'docsync.yaml',
      ENV,
    );
    expect(read.mappings[0]?.git.auth).toEqual({
      kind: 'github-app',
      appId: '12',
      installationId: '34',
      apiUrl: 'https://api.github.com',
      privateKey: { env: 'APP_KEY', pem: ENV.APP_KEY },
    });
    expect(read.mappings[1]?.git.auth).toMatchObject({
      apiUrl: 'https://ghe.acme.test/api/v3',
      privateKey: { file: 'app.pem' },
    });
  });

  it('names the variable that is not set, and never its would-be value', () => {
    const lines = problems(
      config(
        mapping(
          'docs',
          's1',
          `repo: "https://git.acme.test/docs.git", branch: main, auth: { tokenEnv: ${TOKEN_ENV} }`,
        ),
      ),
      {},
    );
    expect(lines.join('\n')).toMatch(
      /mappings\[0\]\.git\.auth\.tokenEnv.*environment variable DOCS_GIT_TOKEN is not set/,
    );
  });

  it('refuses a key for an HTTPS remote, a token for an SSH one, and credentials in the URL beside git.auth', () => {
    const lines = problems(
      config(
        mapping(
          'a',
          's1',
          'repo: "https://git.acme.test/a.git", branch: main, auth: { sshKeyFile: k, knownHostsFile: h }',
        ) +
          mapping(
            'b',
            's2',
            `repo: "git@git.acme.test:acme/b.git", branch: main, auth: { tokenEnv: ${TOKEN_ENV} }`,
          ) +
          mapping(
            'c',
            's3',
            `repo: "https://me:pw@git.acme.test/c.git", branch: main, auth: { tokenEnv: ${TOKEN_ENV} }`,
          ),
      ),
    ).join('\n');
    expect(lines).toMatch(/mappings\[0\]\.git\.auth.*an SSH key is for an SSH remote/);
    expect(lines).toMatch(/mappings\[1\]\.git\.auth.*a token is for an HTTPS remote/);
    expect(lines).toMatch(/mappings\[2\]\.git\.auth.*take them out of the URL/);
    expect(lines).not.toContain('pw@');
  });

  it('asks for one form, and one place of the app key', () => {
    const lines = problems(
      config(
        mapping('a', 's1', `repo: "https://git.acme.test/a.git", branch: main, auth: { token: abc }`) +
          mapping(
            'b',
            's2',
            'repo: "https://github.com/acme/b.git", branch: main, auth: { githubApp: { appId: 1, installationId: 2 } }',
          ),
      ),
    ).join('\n');
    expect(lines).toMatch(/mappings\[0\]\.git\.auth.*give one of \{ tokenEnv/);
    expect(lines).toMatch(/mappings\[1\]\.git\.auth\.githubApp.*privateKeyFile \(a path\) or privateKeyEnv/);
  });

  it('gives every mapping of one repository the same credentials, since they share one mirror', () => {
    const lines = problems(
      config(
        mapping(
          'a',
          's1',
          `repo: "https://git.acme.test/docs.git", branch: main, auth: { tokenEnv: ${TOKEN_ENV} }`,
        ) + mapping('b', 's2', 'repo: "https://git.acme.test/docs.git", branch: next'),
      ),
    ).join('\n');
    expect(lines).toMatch(
      /mappings\[1\]\.git\.auth.*mappings\[0\] reads the same repository with another git\.auth/,
    );
  });
});

describe('artifacts.s3', () => {
  it('takes a bucket with the defaults: the docsync/ prefix, 15 minutes, parts of 8 MiB', () => {
    const read = parseConfig('artifacts: { s3: { bucket: docsync-bundles } }\n', 'docsync.yaml', {});
    expect(read.artifacts.s3).toEqual({
      bucket: 'docsync-bundles',
      prefix: 'docsync/',
      forcePathStyle: false,
      expires: 15 * 60_000,
      partSize: 8 * 1024 * 1024,
    });
    expect(parseConfig('{}\n', 'docsync.yaml', {}).artifacts.s3).toBeUndefined();
  });

  it('names what is wrong with a bucket name, an endpoint, parts under 5 MiB and an expiry past 7 days', () => {
    const lines = problems(
      'artifacts: { s3: { bucket: Bundles_1, endpoint: "minio:9000", partSize: 1MiB, expires: 8d } }\n',
      {},
    ).join('\n');
    expect(lines).toMatch(/artifacts\.s3\.bucket.*an S3 bucket name/);
    expect(lines).toMatch(/artifacts\.s3\.endpoint.*http\(s\) URL/);
    expect(lines).toMatch(/artifacts\.s3\.partSize/);
    expect(lines).toMatch(/artifacts\.s3\.expires/);
  });
});
