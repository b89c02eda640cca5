import { describe, expect, it } from 'vitest';
import { createTestRepo } from '../../support/git-repos.js';
import { onceConfig } from '../../support/once-config.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';

interface RenderedPage {
  type: string;
  git?: { path: string };
}

describe('a docs folder without a readme', () => {
  it('imports, and docsync once names the page the service opens first and the fix', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'No readme');
    const repo = await createTestRepo();
    await repo.commit(
      {
        'docs/SUMMARY.md': '# Summary\n\n* [Install](install.md)\n* [About](about.md)\n',
        'docs/about.md': '# About\n',
        'docs/install.md': '# Install\n',
      },
      'Docs without a README',
    );
    await repo.push();
    const { once } = await onceConfig({ emulator, space, repo, mapping: 'no-readme', dir: 'docs' });

    const run = await once('--json');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      result: string;
      changeRequest: { id: string };
      warnings: Array<{ code: string; file: string; message: string }>;
    };
    expect(result.result).toBe('imported');
    expect(result.warnings).toEqual([
      {
        code: 'README_MISSING',
        file: 'README.md',
        message:
          'the docs root has no README.md: the service opens install.md, the first entry of SUMMARY.md, first; add README.md, or set structure.readme in .gitbook.yaml to the page to open first',
      },
    ]);
    // What the warning says is what the service did: its first page is the summary's first entry.
    const { pages } = (
      await callApi<{ pages: RenderedPage[] }>(
        `${emulator.baseUrl}/spaces/${space}/change-requests/${result.changeRequest.id}/content/pages`,
        emulator.tokens.admin,
      )
    ).body;
    expect(pages[0]?.git?.path).toBe('install.md');
  });
});
