// The daemon's link check placed in git: a change request revision docsync imported from a commit
// gets each broken link's line from that commit in the mapping's mirror; any other revision keeps
// the page's file and no line, since its lines need not be git's.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/load-config.js';
import { GitMirror } from '../../../src/git/git-mirror.js';
import type { BrokenLink } from '../../../src/links/broken-link.js';
import { linkPlace } from '../../../src/links/link-place.js';
import { placeCheckInGit } from '../../../src/links/place-check-in-git.js';
import { MemoryMappingStateStore } from '../../../src/state/memory-mapping-state-store.js';
import { createTestRepo } from '../../support/git-repos.js';
import { captureLog, tempDir } from '../../support/test-context.js';

describe('placeCheckInGit', () => {
  it('places the links of an imported revision from its commit, and no others', async () => {
    const repo = await createTestRepo();
    const sha = await repo.commit(
      { 'site/docs/guide.md': '# Guide\n\nIntro.\n\nSee [old](old.md).\n' },
      'Guide with a broken link',
    );
    await repo.push();
    // The commit changes after the import: the lines are those of the imported commit.
    await repo.commit({ 'site/docs/guide.md': '# Guide\n\n\n\n\n\nSee [old](old.md).\n' }, 'Later');
    await repo.push();
    const config = parseConfig(
      `
service: { baseUrl: "http://127.0.0.1:9/v1", token: t }
mappings:
  - { name: guides, space: spc_1, git: { repo: ${repo.remote}, branch: main, dir: site/docs } }
`,
      'test.yaml',
      {},
    );
    const mirror = new GitMirror({
      repo: repo.remote,
      dir: join(await tempDir('place-mirror'), 'm.git'),
      log: captureLog().log,
    });
    await mirror.fetch();
    const mappings = new MemoryMappingStateStore();
    const deps = {
      config,
      mappings,
      mirrorFor: () => mirror,
      log: captureLog().log,
      signal: AbortSignal.timeout(20_000),
    };
    const broken: BrokenLink[] = [
      { pageId: 'p1', pageTitle: 'Guide', pagePath: 'guide', sourcePath: 'guide.md', target: 'old.md' },
      { pageId: 'p2', pageTitle: 'Notes', pagePath: 'notes', noGitFile: true, target: 'x.md' },
    ];

    await mappings.recordRevisionOrigin('spc_1', 'rev_import', {
      kind: 'import',
      mapping: 'guides',
      sha,
      changeRequest: 'cr_1',
    });
    const imported = await placeCheckInGit(deps, 'spc_1', { revision: 'rev_import', broken });
    expect(imported.map(linkPlace)).toEqual([
      'site/docs/guide.md:5:5',
      'no file in git: the page was made in the service',
    ]);

    await mappings.recordRevisionOrigin('spc_1', 'rev_update', {
      kind: 'update',
      mapping: 'guides',
      sha,
      changeRequest: 'cr_1',
    });
    const updated = await placeCheckInGit(deps, 'spc_1', { revision: 'rev_update', broken });
    expect(updated.map(linkPlace)).toEqual([
      'site/docs/guide.md, line not known',
      'no file in git: the page was made in the service',
    ]);

    const edited = await placeCheckInGit(deps, 'spc_1', { revision: 'rev_someone_else', broken });
    expect(edited.map(linkPlace)).toEqual(updated.map(linkPlace));
  });
});
