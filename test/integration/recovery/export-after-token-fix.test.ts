// An edit made in the service while docsync's service token is wrong (401: the space poll fails)
// reaches git once the token is fixed, within a poll interval of the fix: with a restart on the
// right token, and without one when the service starts accepting the token.
import { describe, expect, it } from 'vitest';
import type { RedisMappingStateStore } from '../../../src/state/redis-mapping-state-store.js';
import type { TestRepo } from '../../support/git-repos.js';
import { addRevision, editInService, findPage, testPage } from '../../support/service-content.js';
import type { TestEmulator } from '../../support/start-test-emulator.js';
import {
  FIX_TO_DONE_MS,
  failedRun,
  refuseAdminToken,
  startWithRightToken,
  startWithWrongToken,
  stopDaemon,
  tokenFixWorld,
} from '../../support/token-fix.js';
import { waitFor } from '../../support/wait-for.js';

const README = '# Welcome\n\nSee [install](install.md).\n';
const INSTALL = '# Install\n\nRun it.\n';

const setUp = () =>
  tokenFixWorld({
    name: 'export',
    // The space holds what git holds, so that the edit below is the only difference.
    prepare: (emulator, space) =>
      addRevision(emulator.emulator, { spaceId: space }, [
        { ...testPage('pg_readme', 'welcome'), title: 'Welcome', sourcePath: 'README.md', markdown: README },
        {
          ...testPage('pg_install', 'install'),
          title: 'Install',
          sourcePath: 'install.md',
          markdown: INSTALL,
        },
      ]),
    files: { 'docs/README.md': README, 'docs/install.md': INSTALL },
    yaml: (space, remote) => `mappings:
  - name: docs
    space: ${space}
    direction: space-to-git
    git: { repo: ${remote}, branch: main, dir: docs, poll: 1s }
    export: { poll: 1s, author: { name: Docs Bot, email: docs-bot@example.com } }
`,
  });

/** A writer's edit in the service: a new revision of the space. */
function editReadme(emulator: TestEmulator, space: string): string {
  return editInService(emulator.emulator, { spaceId: space }, (pages) => {
    findPage(pages, 'README.md').markdown = '# Welcome\n\nWelcome aboard.\n';
  }).id;
}

async function exportedAfterFix(state: RedisMappingStateStore, repo: TestRepo, revision: string) {
  const exported = await waitFor(
    async () => {
      const current = await state.get('docs');
      return current.lastExport?.revision === revision ? current : undefined;
    },
    'the export after the fix',
    FIX_TO_DONE_MS,
  );
  expect(exported.lastExport?.result).toBe('committed');
  expect(await repo.git('--git-dir', repo.remote, 'show', 'main:docs/README.md')).toBe(
    '# Welcome\n\nWelcome aboard.',
  );
}

describe('an edit in the service while the token is wrong', () => {
  it('reaches git after a restart with the right token', async () => {
    const { emulator, space, repo, state, setup } = await setUp();
    const wrong = await startWithWrongToken(setup);
    await failedRun(wrong, 'poll-space');
    const revision = editReadme(emulator, space);
    await stopDaemon(wrong);

    await startWithRightToken(setup);
    await exportedAfterFix(state, repo, revision);
  });

  it('reaches git, without a restart, once the service accepts the token', async () => {
    const { emulator, space, repo, state, setup } = await setUp();
    const refusal = refuseAdminToken(emulator);
    const daemon = await startWithRightToken(setup);
    await failedRun(daemon, 'poll-space');
    const revision = editReadme(emulator, space);

    refusal.accept();
    await exportedAfterFix(state, repo, revision);
  });
});
