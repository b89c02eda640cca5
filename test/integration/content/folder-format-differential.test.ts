// Differential test of the docs folder format (docs/folder-format.md): each folder of a small corpus
// is read twice, by docsync without the service (its bundle as the dry-run preview reads it, and the
// broken links its own link reading finds, placed in git by src/links/) and by the local service
// (`docsync once` imports it over HTTP; the page tree, the files and the broken links are read back
// over HTTP as docsync reads them). The two readings must be equal. The service and the worker are
// meant to be two implementations of one format (issue 40): where they differ, one of them is wrong.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../../src/concurrency/map-bounded.js';
import { bundleWorkingFolder } from '../../../src/content/bundle-working-folder.js';
import { readGitbookLayout } from '../../../src/content/gitbook-layout.js';
import type { ImportReport } from '../../../src/import/run-import.js';
import type { BrokenLink } from '../../../src/links/broken-link.js';
import { workingCopyFiles } from '../../../src/links/locate-broken-links.js';
import { createTestRepo } from '../../support/git-repos.js';
import { onceConfig } from '../../support/once-config.js';
import { createTestSpace, startTestEmulator } from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { tempDir } from '../../support/test-context.js';
import { type CorpusFolder, FOLDER_FORMAT_CORPUS } from './folder-format-corpus.js';
import {
  brokenPairs,
  countPages,
  documentPaths,
  pageListBrokenLinks,
  predictReading,
  serviceReading,
} from './folder-format-readings.js';

/** Folders imported at once: `docsync once` processes, which mostly wait on each other's CPU. */
const PARALLEL_FOLDERS = 3;

/** `docsync once --format json`: the import's report, and the broken links placed in git. */
type OnceJson = ImportReport & { brokenLinks: BrokenLink[] };

/**
 * Folders whose two readings differ today, and which side is wrong. Each is reported to its owner;
 * its test is expected to fail until then.
 */
const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {};

describe('the folder format read by docsync and by the local service', async () => {
  const emulator = await startTestEmulator();
  const { client: api } = testApiClient(emulator);
  const bundles = await tempDir('folder-format-bundles');
  // One repository and one commit hold the whole corpus: each test maps its own folder of it.
  const repo = await createTestRepo();
  for (const folder of FOLDER_FORMAT_CORPUS) {
    for (const [path, content] of Object.entries(folder.files)) {
      const file = join(repo.work, 'corpus', folder.name, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  }
  await repo.commit({}, 'The folder format corpus');

  /** Both readings of a folder: docsync's prediction, and the service's after `docsync once`. */
  async function readBoth(folder: CorpusFolder) {
    const dir = `corpus/${folder.name}`;
    const bundle = join(bundles, `${folder.name}.zip`);
    await bundleWorkingFolder(join(repo.work, dir), bundle);
    const layout = readGitbookLayout(folder.files['.gitbook.yaml']?.toString());
    const files = workingCopyFiles(repo.work, dir);
    const predicted = await predictReading(bundle, { files, layout }, emulator.origin);

    const space = await createTestSpace(emulator, folder.name.slice(0, 50));
    const { once } = await onceConfig({ emulator, space, repo, mapping: folder.name, dir });
    const run = await once('--format', 'json');
    if (run.code !== 0) return { predicted, run, report: undefined, held: undefined, pageLists: [] };
    const report = JSON.parse(run.stdout) as OnceJson;
    const target = { spaceId: space, changeRequestId: report.changeRequest?.id ?? '' };
    const revision = await api.content.getRevision(target);
    const pageLists = await pageListBrokenLinks(api, target, revision.pages ?? []);
    return { predicted, run, report, held: serviceReading(revision, report.brokenLinks), pageLists };
  }

  // Every folder is read before the tests, a few at a time: most of the time is `docsync once`
  // starting, and the CLI helpers end their processes after the test (or file) that started them,
  // which concurrent tests would confuse. A folder that failed fails its own test.
  const readings = new Map(
    await mapBounded(FOLDER_FORMAT_CORPUS, PARALLEL_FOLDERS, async (folder) => {
      const reading = await readBoth(folder).catch((error: unknown) => ({ error }));
      return [folder.name, reading] as const;
    }),
  );

  // Apart from the comparisons, so that a known difference's failing test cannot hide a failed import.
  it('imports every folder of the corpus', () => {
    const outcomes = FOLDER_FORMAT_CORPUS.map((folder) => {
      const reading = readings.get(folder.name);
      if (reading === undefined || 'error' in reading) return [folder.name, String(reading?.error)];
      return [folder.name, reading.report?.result ?? `exit ${reading.run.code}: ${reading.run.stderr}`];
    });
    expect(Object.fromEntries(outcomes)).toEqual(
      Object.fromEntries(FOLDER_FORMAT_CORPUS.map((folder) => [folder.name, 'imported'])),
    );
  });

  for (const folder of FOLDER_FORMAT_CORPUS) {
    const known = KNOWN_DIFFERENCES[folder.name];
    // A known difference runs as a failing test: once fixed, the test says so, and its entry goes.
    const test = known === undefined ? it : it.fails;
    const title = `${folder.name}: the service holds the pages, files and broken links docsync predicted`;
    test(known === undefined ? title : `${title} (known difference: ${known})`, () => {
      const reading = readings.get(folder.name);
      if (reading === undefined || 'error' in reading) throw reading?.error;
      const { predicted, run, report, held, pageLists } = reading;
      // Its log (stderr) is for people: only its exit and report are compared.
      expect(run.code, run.stderr).toBe(0);
      expect(report?.result).toBe('imported');

      expect(held?.pages).toEqual(predicted.pages);
      expect(held?.files).toEqual(predicted.files);
      expect(held?.broken).toEqual(predicted.broken);
      // Each page's own list names the same broken links as the change request's.
      expect(pageLists).toEqual(brokenPairs(held?.broken ?? []));
      // The dry-run preview's pages are the documents and placeholders of that tree, in its order.
      expect(predicted.previewPaths).toEqual(documentPaths(predicted.pages));
      // Every page of every kind and every file is a resource of the import; the total adds what
      // the archive holds and the import leaves out.
      expect(report?.importedResources).toBe(countPages(predicted.pages) + predicted.files.length);
      expect(report?.totalResources).toBe(predicted.totalResources);
      // Not a comparison of two empty readings.
      expect(predicted.pages.length).toBeGreaterThan(0);
      if (folder.hasBrokenLinks !== undefined)
        expect(predicted.broken.length > 0).toBe(folder.hasBrokenLinks);
    });
  }
});
