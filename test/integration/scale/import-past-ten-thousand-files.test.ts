// `docsync once` of a docs folder past 10,000 files: the folder is bundled and imported whole, every
// page and image of it in the change request (the service documents no limit on the files of one
// import; the local service used to refuse past 10,000 entries, and docsync itself too). 50,000 and
// 100,000 files are `npm run bench -- scale`'s rows.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../../support/cli-process.js';
import { callApi, createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir } from '../../support/test-context.js';
import { createLargeDocsRepo } from './large-docs-repo.js';

const FILES = 12_000;

interface ContentPage {
  id: string;
  markdown?: string;
  git?: { path?: string };
  pages?: ContentPage[];
}

function flatten(pages: readonly ContentPage[]): ContentPage[] {
  return pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
}

describe('docsync once of 12,000 files', async () => {
  const emulator = await startTestEmulator();

  it('imports every file of the folder into the change request', { timeout: 600_000 }, async () => {
    const space = await createTestSpace(emulator, 'Large');
    const repo = await createLargeDocsRepo(FILES, await tempDir('large-repo'));
    const dir = await tempDir('once-large');
    const config = join(dir, 'docsync.yaml');
    await writeFile(
      config,
      `dataDir: ${join(dir, 'data')}
http: { listen: "127.0.0.1:0" }
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin}, timeout: 120s }
mappings:
  - { name: large-docs, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: docs } }
`,
    );
    const run = await runCli(['once', '--config', config, '--json'], {
      cwd: dir,
      env: cliEnv(),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      result: string;
      changeRequest: { id: string };
      importedResources: number;
      totalResources: number;
      brokenLinks: unknown[];
    };
    expect(result).toMatchObject({ result: 'imported', importedResources: FILES, totalResources: FILES });
    expect(result.brokenLinks).toEqual([]);

    const content = await callApi<{ pages: ContentPage[]; files: Array<{ git?: { path?: string } }> }>(
      `${emulator.baseUrl}/spaces/${space}/change-requests/${result.changeRequest.id}/content`,
      emulator.tokens.admin,
    );
    const pages = flatten(content.body.pages);
    expect(pages.length + content.body.files.length).toBe(FILES);
    const byPath = new Map(pages.map((page) => [page.git?.path, page.markdown]));
    const samples = [...repo.samples].filter(([path]) => path.endsWith('.md'));
    expect(samples.length).toBeGreaterThan(50);
    for (const [path, text] of samples) expect(byPath.get(path), path).toBe(text);
  });
});
