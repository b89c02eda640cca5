// `docsync doctor`'s repository checks of a private remote (git http-backend behind Basic auth):
// reading with git.auth's token, and, for a mapping that writes to git, the right to push, each
// refusal naming the variable to fix, and the token nowhere in the findings.
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { nameSource } from '../../../src/doctor/config-sources.js';
import type { Finding } from '../../../src/doctor/doctor-finding.js';
import { runDoctor } from '../../../src/doctor/run-doctor.js';
import { startGitHttpServer } from '../../support/git-http-server.js';
import { createTestRepo } from '../../support/git-repos.js';
import { tempDir } from '../../support/test-context.js';

const WRITER = 'glpat-writer-0123456789abcdefghij';
const READER = 'glpat-reader-0123456789abcdefghij';

async function doctorOf(direction: string, token: string): Promise<Finding[]> {
  const repo = await createTestRepo();
  await repo.commit({ 'docs/README.md': '# Docs\n' }, 'docs');
  await repo.push();
  const server = await startGitHttpServer({
    root: dirname(repo.remote),
    username: 'docsync',
    tokens: [WRITER],
    readOnlyTokens: [READER],
  });
  const dir = await tempDir('doctor-auth');
  const text = [
    `dataDir: ${dir}/data`,
    // Nothing listens there: the service's findings are not this test's.
    'service: { baseUrl: "http://127.0.0.1:9/v1", token: service-token-not-used, timeout: 1s }',
    'mappings:',
    '  - name: docs',
    '    space: s1',
    `    direction: ${direction}`,
    '    git:',
    `      repo: ${server.url('remote')}`,
    '      branch: main',
    '      auth: { tokenEnv: DOCS_GIT_TOKEN, username: docsync }',
  ].join('\n');
  const env = { PATH: process.env.PATH ?? '', HOME: dir, DOCS_GIT_TOKEN: token };
  const config = parseConfig(text, `${dir}/docsync.yaml`, env);
  const findings = await runDoctor({
    config,
    names: nameSource({}),
    cwd: dir,
    env,
    scope: 'online',
    timeoutMs: 10_000,
  });
  return findings.filter((finding) => finding.check.startsWith('repository'));
}

describe('docsync doctor with git.auth', () => {
  it('reads and may push with a token that may write', async () => {
    const findings = await doctorOf('both', WRITER);

    expect(findings.map(({ check, status }) => `${check} ${status}`)).toEqual([
      'repository ok',
      'repository-push ok',
    ]);
    expect(findings[1]?.message).toMatch(/may push to main$/);
  });

  it('checks no push for a mapping that only reads git', async () => {
    const findings = await doctorOf('git-to-space', READER);

    expect(findings.map(({ check, status }) => `${check} ${status}`)).toEqual(['repository ok']);
  });

  it('finds a token that may only read, naming its variable', async () => {
    const findings = await doctorOf('space-to-git', READER);

    expect(findings.map(({ check, status }) => `${check} ${status}`)).toEqual([
      'repository ok',
      'repository-push fail',
    ]);
    expect(findings[1]).toMatchObject({
      code: 'GIT_AUTH',
      hint: 'the remote refused the token in DOCS_GIT_TOKEN (git.auth.tokenEnv) of mapping docs: check it is valid, not expired, and may read the repository (and push to it, for space-to-git)',
    });
    expect(JSON.stringify(findings)).not.toContain(READER);
  });

  it('finds a wrong token when reading, naming its variable', async () => {
    const wrong = 'glpat-revoked-0123456789abcdefghij';
    const findings = await doctorOf('both', wrong);

    expect(findings.map(({ check, status }) => `${check} ${status}`)).toEqual([
      'repository fail',
      'repository-push skip',
    ]);
    expect(findings[0]).toMatchObject({ code: 'GIT_AUTH' });
    expect(findings[0]?.hint).toContain(
      'the remote refused the token in DOCS_GIT_TOKEN (git.auth.tokenEnv) of mapping docs',
    );
    expect(JSON.stringify(findings)).not.toContain(wrong);
  });
});
