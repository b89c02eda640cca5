// A two-way mapping on a private repository served by git's own smart HTTP server behind Basic
// auth, with `git.auth.tokenEnv`: the import and the export (a commit pushed back) go through the
// token, which appears in no log line, no /status answer, no process's argument list and no file
// of the mirror; a wrong token is a GIT_AUTH failure whose hint names the variable.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../../jobs/registry.js';
import { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import { startGitHttpServer } from '../../support/git-http-server.js';
import { createTestRepo } from '../../support/git-repos.js';
import { editInService, findPage } from '../../support/service-content.js';
import { startTestDaemon } from '../../support/start-test-daemon.js';
import { createTestSpace, startTestEmulator, type TestEmulator } from '../../support/start-test-emulator.js';
import { exportOf, stateWhere } from '../../support/state-where.js';
import { tempDir, testRedis, uniquePrefix } from '../../support/test-context.js';

const TOKEN = 'ghp_twoWayPrivateToken_0123456789abcdef';
const USER = 'x-access-token';

async function privateSetup(token: string) {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  const repo = await createTestRepo();
  await repo.commit({ 'docs/README.md': '# Welcome\n', 'docs/install.md': '# Install\n\nRun it.\n' }, 'docs');
  await repo.push();
  const server = await startGitHttpServer({ root: dirname(repo.remote), username: USER, tokens: [TOKEN] });
  const dataDir = await tempDir('private-two-way');
  const prefix = uniquePrefix('private-two-way');
  const yaml = `mappings:
  - name: docs
    space: ${space}
    direction: both
    git:
      repo: ${server.url('remote')}
      branch: main
      dir: docs
      poll: 1s
      auth: { tokenEnv: DOCS_GIT_TOKEN }
    changeRequest: { poll: 1s }
    merge: { enabled: true, approvals: 0 }
    export: { poll: 1s, author: { name: Docs Bot, email: docs-bot@example.com } }
`;
  const daemon = await startTestDaemon({
    prefix,
    jobs: JOBS,
    service: emulator,
    dataDir,
    yaml,
    env: { DOCS_GIT_TOKEN: token },
  });
  const state = new RedisMappingStateStore(testRedis(prefix), prefix);
  return { emulator, space, repo, server, daemon, state, dataDir };
}

async function statusText(httpAddress: string): Promise<string> {
  return (await fetch(`${httpAddress}/status`)).text();
}

async function filesUnder(dir: string): Promise<string> {
  const texts: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) texts.push(await readFile(join(entry.parentPath, entry.name), 'latin1'));
  return texts.join('\n');
}

const editSpace = (emulator: TestEmulator, space: string) =>
  editInService(emulator.emulator, { spaceId: space }, (pages) => {
    findPage(pages, 'install.md').markdown = '# Install\n\nRun it, then check the logs.\n';
  }).id;

describe('a two-way mapping on a private repository (git.auth.tokenEnv)', () => {
  it('imports and exports through the token, which shows nowhere', async () => {
    const { emulator, space, repo, server, daemon, state, dataDir } = await privateSetup(TOKEN);
    const first = await repo.git('rev-parse', 'HEAD');

    await stateWhere(state, 'docs', (s) => s.exportBase === first, 'the merged import');
    const revision = editSpace(emulator, space);
    const exported = await exportOf(state, 'docs', revision, 'the export of the edit');

    expect(exported.lastExport?.result).toBe('committed');
    const pushed = await repo.git('--git-dir', repo.remote, 'rev-parse', 'main');
    expect(exported.lastExport?.sha).toBe(pushed);
    expect(await repo.git('--git-dir', repo.remote, 'show', `${pushed}:docs/install.md`)).toContain(
      'check the logs',
    );
    expect(
      server.requests.some((request) => request.service === 'git-receive-pack' && request.status === 200),
    ).toBe(true);
    expect(server.requests.filter((request) => request.tokenInArguments)).toEqual([]);
    expect(daemon.texts.join('\n')).not.toContain(TOKEN);
    expect(await statusText(daemon.httpAddress)).not.toContain(TOKEN);
    expect(await filesUnder(join(dataDir, 'git'))).not.toContain(TOKEN);
  });

  it('fails clearly with a wrong token: GIT_AUTH in /status, the hint naming the variable', async () => {
    const wrong = 'ghp_revokedToken_0123456789abcdefabcdef';
    const { daemon, server } = await privateSetup(wrong);

    let status = '';
    const deadline = Date.now() + 20_000;
    while (!status.includes('GIT_AUTH') && Date.now() < deadline) {
      status = await statusText(daemon.httpAddress);
      if (!status.includes('GIT_AUTH')) await new Promise((resolve) => setTimeout(resolve, 200));
    }

    expect(status).toContain('GIT_AUTH');
    expect(status).toContain(
      'the remote refused the token in DOCS_GIT_TOKEN (git.auth.tokenEnv) of mapping docs: check it is valid, not expired',
    );
    expect(status).not.toContain(wrong);
    expect(daemon.texts.join('\n')).not.toContain(wrong);
    expect(server.requests.filter((request) => request.tokenInArguments)).toEqual([]);
  });
});
