import { randomBytes } from 'node:crypto';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundleGitFolder } from '../../../src/content/bundle-git-folder.js';
import { bundleWorkingFolder } from '../../../src/content/bundle-working-folder.js';
import { childPages, type DocsPage } from '../../../src/content/docs-tree.js';
import { folderToTree } from '../../../src/content/folder-to-tree.js';
import { readOutline } from '../../../src/content/read-outline.js';
import { readZip } from '../../../src/content/read-zip.js';
import type { GitMirror } from '../../../src/git/git-mirror.js';
import { SAMPLE_DOCS } from '../../support/docs-archives.js';
import { writeRealShapedDocs } from '../../support/real-shaped-docs.js';
import { createGitFixture, type Files, type GitFixture } from './git-fixture.js';

let repo: GitFixture;
let mirror: GitMirror;
let out: string;

beforeEach(async () => {
  repo = await createGitFixture();
  mirror = repo.mirror();
  out = join(repo.root, 'bundle.zip');
});

afterEach(async () => {
  await repo.cleanup();
});

/** Commits `files`, pushes, fetches, and returns the commit. */
async function commitDocs(files: Files, message = 'docs'): Promise<string> {
  const sha = await repo.publish(files, message);
  await mirror.fetch();
  return sha;
}

function under(folder: string, files: Files): Files {
  return Object.fromEntries(Object.entries(files).map(([path, data]) => [`${folder}/${path}`, data]));
}

function outline(pages: readonly DocsPage[]): unknown[] {
  return pages.map((page) =>
    childPages(page).length === 0 ? page.title : { [page.title]: outline(childPages(page)) },
  );
}

/** The mirror, recording the blobs asked of each git process that reads content. */
function countingReads(source: GitMirror): { mirror: GitMirror; blobIds: () => string[][] } {
  const asked: string[][] = [];
  const counting = Object.create(source) as GitMirror;
  counting.openFolder = async (...args: Parameters<GitMirror['openFolder']>) => {
    const folder = await source.openFolder(...args);
    return (
      folder && {
        ...folder,
        readBlobs: (blobs) => {
          const ids: string[] = [];
          asked.push(ids);
          return folder.readBlobs(recorded(blobs, ids));
        },
      }
    );
  };
  return { mirror: counting, blobIds: () => asked };
}

async function* recorded(
  blobs: AsyncIterable<string> | Iterable<string>,
  ids: string[],
): AsyncGenerator<string> {
  for await (const id of blobs) {
    ids.push(id);
    yield id;
  }
}

/** The blob id of `path` at `sha`. */
function blobId(sha: string, path: string): string {
  return repo.git('rev-parse', `${sha}:${path}`);
}

const MIB = 1024 * 1024;

describe('bundleGitFolder', () => {
  it('bundles the folder at a commit into a zip that reads back as its pages', async () => {
    const sha = await commitDocs({ ...under('docs', SAMPLE_DOCS), 'README.md': '# Repository, not docs\n' });
    const result = await bundleGitFolder(mirror, sha, 'docs', out);

    expect(result).toMatchObject({ files: Object.keys(SAMPLE_DOCS).length, skipped: 0, outFile: out });
    expect(result.treeHash).toBe(await mirror.treeHash(sha, 'docs'));
    const entries = await readZip(await readFile(out));
    expect([...entries.keys()].sort()).toEqual(Object.keys(SAMPLE_DOCS).sort());
    const tree = folderToTree(entries);
    expect(outline(tree.pages)).toEqual(['Welcome', { Guides: ['Installing', 'Configure'] }, 'FAQ']);
    expect(result.bytes).toBe([...entries.values()].reduce((sum, data) => sum + data.length, 0));
  });

  it('honours root, readme and summary of .gitbook.yaml, and leaves the file out', async () => {
    const sha = await commitDocs({
      'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: intro.md\n  summary: toc.md\n',
      'docs/notes.md': '# Outside the root\n',
      'docs/content/intro.md': '# Introduction\n',
      'docs/content/toc.md': '# Table\n\n* [Intro](intro.md)\n* [Setup](setup.md)\n',
      'docs/content/setup.md': '# Setup\n',
    });
    await bundleGitFolder(mirror, sha, 'docs', out);
    const entries = await readZip(await readFile(out));
    expect([...entries.keys()]).toEqual(['README.md', 'SUMMARY.md', 'setup.md']);
    expect(entries.get('README.md')?.toString()).toBe('# Introduction\n');
    expect(entries.get('SUMMARY.md')?.toString()).toBe(
      '# Table\n\n* [Intro](README.md)\n* [Setup](setup.md)\n',
    );
    expect(outline(folderToTree(entries).pages)).toEqual(['Intro', 'Setup']);
  });

  it('skips symbolic links and submodules and counts them', async () => {
    await repo.write(under('docs', { 'README.md': '# Start\n' }));
    await repo.link('docs/link.md', 'README.md');
    const sub = repo.commit('first');
    repo.git('update-index', '--add', '--cacheinfo', `160000,${sub},docs/vendor`);
    // Committed without `add --all`, which would drop the gitlink: no checkout exists at docs/vendor.
    repo.git('-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '--quiet', '-m', 'submodule');
    const sha = repo.git('rev-parse', 'HEAD');
    repo.push();
    await mirror.fetch();

    const result = await bundleGitFolder(mirror, sha, 'docs', out);
    expect(result).toMatchObject({ files: 1, skipped: 2 });
    expect([...(await readZip(await readFile(out))).keys()]).toEqual(['README.md']);
  });

  it('gives the same bytes for the same folder content, at any commit', async () => {
    const files = under('docs', { ...SAMPLE_DOCS, 'assets/data.bin': randomBytes(200_000) });
    const first = await commitDocs(files);
    const second = await commitDocs({ 'elsewhere.txt': 'not docs\n' });
    const a = await bundleGitFolder(mirror, first, 'docs', join(repo.root, 'a.zip'));
    const b = await bundleGitFolder(mirror, second, 'docs', join(repo.root, 'b.zip'));
    expect(b.treeHash).toBe(a.treeHash);
    expect((await readFile(b.outFile)).equals(await readFile(a.outFile))).toBe(true);

    const third = await commitDocs({ 'docs/faq.md': '# FAQ, changed\n' });
    const c = await bundleGitFolder(mirror, third, 'docs', join(repo.root, 'c.zip'));
    expect(c.treeHash).not.toBe(a.treeHash);
    expect((await readFile(c.outFile)).equals(await readFile(a.outFile))).toBe(false);
  });

  it('gives the same zip as the working copy checked out at that commit', async () => {
    const sha = await commitDocs(under('docs', { ...SAMPLE_DOCS, '.gitbook.yaml': 'root: ./\n' }));
    const fromGit = await bundleGitFolder(mirror, sha, 'docs', join(repo.root, 'git.zip'));
    const fromCopy = await bundleWorkingFolder(join(repo.work, 'docs'), join(repo.root, 'copy.zip'));
    expect(fromCopy.files).toBe(fromGit.files);
    expect((await readFile(fromCopy.outFile)).equals(await readFile(fromGit.outFile))).toBe(true);
  });

  it('refuses a folder past maxBytes or maxFiles, and leaves no file behind', async () => {
    const sha = await commitDocs(under('docs', { 'README.md': '# Start\n', 'big.bin': randomBytes(50_000) }));
    await expect(bundleGitFolder(mirror, sha, 'docs', out, { maxBytes: 40_000 })).rejects.toMatchObject({
      name: 'BundleTooLargeError',
      code: 'ARCHIVE_TOO_LARGE',
    });
    await expect(bundleGitFolder(mirror, sha, 'docs', out, { maxFiles: 1 })).rejects.toMatchObject({
      code: 'ARCHIVE_TOO_MANY_ENTRIES',
    });
    await expect(access(out)).rejects.toThrow();
  });

  // That a given tree id saves a lookup with a git before 2.36 is GitMirror.openFolder's test.
  it('counts the links a proposed skipFilesOver breaks after reading .gitbook.yaml and the summary, in the same git process', async () => {
    const sha = await commitDocs(
      under('docs', {
        '.gitbook.yaml': 'root: ./handbook/\n',
        'handbook/SUMMARY.md': '# Summary\n\n* [Start](README.md)\n* [Data](guides/data.md)\n',
        'handbook/README.md': '# Start\n\n[Data set](files/data.csv)\n',
        'handbook/guides/data.md': '# Data\n\n[Download][csv]\n\n[csv]: ../files/data.csv\n',
        'handbook/files/data.csv': randomBytes(30_000),
        'handbook/files/small.csv': randomBytes(1_000),
      }),
    );
    const counted = countingReads(mirror);
    const refused = await bundleGitFolder(counted.mirror, sha, 'docs', out, { maxBytes: 20_000 }).catch(
      (error: unknown) => error,
    );
    expect((refused as Error).message).toMatch(
      /\(import: \{ skipFilesOver: 16KiB \}\), the largest size that makes the rest fit: it leaves out 1 file, listed as a warning and kept in git: files\/data\.csv \(29\.3 KiB\); 2 links on 2 pages point to it and would break\./,
    );
    const [readme, summary, data] = ['README.md', 'SUMMARY.md', 'guides/data.md'].map((page) =>
      blobId(sha, `docs/handbook/${page}`),
    );
    // One git process: .gitbook.yaml and the summary for the plan, then the pages (the summary again).
    expect(counted.blobIds()).toEqual([[blobId(sha, 'docs/.gitbook.yaml'), summary, readme, summary, data]]);
  });

  it('gives the same bytes and tree id with a tree id given, and refuses a missing folder all the same', async () => {
    const sha = await commitDocs(under('docs', { ...SAMPLE_DOCS, '.gitbook.yaml': 'root: ./\n' }));
    const looked = await bundleGitFolder(mirror, sha, 'docs', join(repo.root, 'looked.zip'));
    const given = await bundleGitFolder(mirror, sha, 'docs', join(repo.root, 'given.zip'), {
      treeHash: looked.treeHash,
    });
    expect(given.treeHash).toBe(looked.treeHash);
    expect((await readFile(given.outFile)).equals(await readFile(looked.outFile))).toBe(true);
    await expect(
      bundleGitFolder(mirror, sha, 'nope', out, { treeHash: looked.treeHash }),
    ).rejects.toMatchObject({ code: 'CONTENT_INVALID', path: 'nope' });
  });

  it('refuses a folder missing at the commit, and a bad .gitbook.yaml naming the key', async () => {
    const sha = await commitDocs({
      'docs/.gitbook.yaml': 'structure:\n  readme: intro.txt\n',
      'docs/intro.txt': 'x',
    });
    await expect(bundleGitFolder(mirror, sha, 'nope', out)).rejects.toMatchObject({
      code: 'CONTENT_INVALID',
    });
    await expect(bundleGitFolder(mirror, sha, 'docs', out)).rejects.toThrow(/structure\.readme/);
  });

  it('leaves the git host README.md beside a configured readme out of the bundle, with a warning', async () => {
    const sha = await commitDocs(
      under('docs', {
        '.gitbook.yaml': 'structure:\n  readme: INTRODUCTION.md\n',
        'README.md': '# For the git host\n',
        'INTRODUCTION.md': '# Introduction\n',
        'SUMMARY.md': '# Summary\n\n* [Introduction](INTRODUCTION.md)\n* [Setup](setup.md)\n',
        'setup.md': '# Setup\n',
      }),
    );
    const result = await bundleGitFolder(mirror, sha, 'docs', out);
    const entries = await readZip(await readFile(out));
    expect([...entries.keys()]).toEqual(['README.md', 'SUMMARY.md', 'setup.md']);
    expect(entries.get('README.md')?.toString()).toBe('# Introduction\n');
    expect(entries.get('SUMMARY.md')?.toString()).toBe(
      '# Summary\n\n* [Introduction](README.md)\n* [Setup](setup.md)\n',
    );
    expect(result.warnings).toEqual([
      {
        code: 'FILE_LEFT_OUT',
        file: 'README.md',
        message:
          "README.md is the git host's page; .gitbook.yaml names INTRODUCTION.md as the first page: README.md stays in git and is not imported",
      },
    ]);
    expect(result.leftOut.map((file) => [file.path, file.reason])).toEqual([
      ['.gitbook.yaml', 'configuration'],
      ['README.md', 'git-readme'],
    ]);
    expect(outline(folderToTree(entries).pages)).toEqual(['Introduction', 'Setup']);
  });

  it('leaves a file and a folder whose names are not UTF-8 out, with a warning each, from git as from the working copy', async () => {
    await repo.write({ 'docs/README.md': '# Start\n', 'docs/setup.md': '# Setup\n' });
    // Latin-1 `café` and `résumé`, committed from an old system.
    const latin1 = (...parts: (string | number)[]) =>
      Buffer.concat(
        parts.map((part) => (typeof part === 'number' ? Buffer.from([part]) : Buffer.from(part))),
      );
    await writeFile(latin1(repo.work, '/docs/caf', 0xe9, '.md'), '# Café\n');
    await mkdir(latin1(repo.work, '/docs/r', 0xe9, 'sum', 0xe9));
    await writeFile(latin1(repo.work, '/docs/r', 0xe9, 'sum', 0xe9, '/page.md'), '# Page\n');
    // Below a UTF-8 folder whose name holds a backslash: the whole path shown.
    await mkdir(join(repo.work, 'docs/back\\slash'));
    await writeFile(latin1(repo.work, '/docs/back\\slash/caf', 0xe9, '.md'), '# Café\n');
    const sha = repo.commit('names from an old system');
    repo.push();
    await mirror.fetch();

    const result = await bundleGitFolder(mirror, sha, 'docs', out);
    expect([...(await readZip(await readFile(out))).keys()]).toEqual(['README.md', 'setup.md']);
    expect(result.warnings.map((warning) => [warning.code, warning.file])).toEqual([
      ['FILE_LEFT_OUT', 'back\\x5cslash/caf\\xe9.md'],
      ['FILE_LEFT_OUT', 'caf\\xe9.md'],
      ['FILE_LEFT_OUT', 'r\\xe9sum\\xe9'],
    ]);
    expect(result.warnings[1]?.message).toBe(
      'caf\\xe9.md has a name that is not UTF-8 (shown with its bytes as \\xNN): it stays in git and is not imported; rename it to a UTF-8 name (git mv) to import it',
    );
    expect(result.leftOut.map((file) => [file.path, file.reason])).toEqual([
      ['back\\x5cslash/caf\\xe9.md', 'name-not-utf8'],
      ['caf\\xe9.md', 'name-not-utf8'],
      ['r\\xe9sum\\xe9', 'name-not-utf8'],
    ]);
    // The file watcher's bundle of the same folder: the same bytes, the same warnings.
    const fromCopy = await bundleWorkingFolder(join(repo.work, 'docs'), join(repo.root, 'copy.zip'));
    expect((await readFile(fromCopy.outFile)).equals(await readFile(out))).toBe(true);
    // In the order the file system lists them.
    const byFile = (warnings: readonly { file: string }[]) =>
      [...warnings].sort((a, b) => a.file.localeCompare(b.file));
    expect(byFile(fromCopy.warnings)).toEqual(byFile(result.warnings));
  });

  it('refuses a 60 MiB file having read only the pages, naming it, the setting that leaves it out and the links it breaks', async () => {
    const sha = await commitDocs(
      under('docs', {
        'README.md': '# Start\n\nWatch [the walkthrough](assets/walkthrough.mp4).\n',
        'guides/setup.md':
          '# Setup\n\n<video src="../assets/walkthrough.mp4"></video> [again](../assets/walkthrough.mp4)\n',
        'assets/walkthrough.mp4': Buffer.alloc(60 * MIB),
      }),
    );
    const counted = countingReads(mirror);
    const refused = await bundleGitFolder(counted.mirror, sha, 'docs', out).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      name: 'BundleTooLargeError',
      code: 'ARCHIVE_TOO_LARGE',
      path: 'assets/walkthrough.mp4',
    });
    // A <video> is no link the service checks: the two markdown links are.
    const message =
      'a file is over the limit of 20 MiB per file: assets/walkthrough.mp4 (60 MiB); the docs root has 60 MiB in 3 files ' +
      'to import, over the limit of 50 MiB per import. Set import.skipFilesOver of the mapping (import: { skipFilesOver: 20MiB }), ' +
      'the largest size that makes the rest fit: it leaves out 1 file, listed as a warning and kept in git: ' +
      'assets/walkthrough.mp4 (60 MiB); 2 links on 2 pages point to it and would break. Or move large files out of the docs root';
    expect((refused as Error).message).toBe(message);
    // The pages, in the one git process: never the video.
    expect(counted.blobIds()).toEqual([[blobId(sha, 'docs/README.md'), blobId(sha, 'docs/guides/setup.md')]]);
    await expect(access(out)).rejects.toThrow();
    // The file watcher's bundle of the same folder says the same.
    await expect(bundleWorkingFolder(join(repo.work, 'docs'), join(repo.root, 'copy.zip'))).rejects.toThrow(
      message,
    );

    const result = await bundleGitFolder(counted.mirror, sha, 'docs', out, { skipFilesOver: 5 * MIB });
    // The video left out: never read.
    expect(counted.blobIds()[1]).toEqual([
      blobId(sha, 'docs/README.md'),
      blobId(sha, 'docs/guides/setup.md'),
    ]);
    expect([...(await readZip(await readFile(out))).keys()]).toEqual(['README.md', 'guides/setup.md']);
    expect(result.warnings).toEqual([
      {
        code: 'FILE_LEFT_OUT',
        file: 'assets/walkthrough.mp4',
        message:
          'assets/walkthrough.mp4 is 60 MiB, over import.skipFilesOver (5 MiB): it stays in git and is not imported',
      },
    ]);
  });

  it('leaves unlisted pages out under skip, and lists them in the bundled summary under append', async () => {
    const summary = '# Summary\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n';
    const sha = await commitDocs(
      under('docs', {
        'README.md': '# Welcome\n',
        'SUMMARY.md': summary,
        'guides/README.md': '# Guides\n',
        'guides/draft.md': '# Draft\n',
        'notes.md': '# Notes\n',
      }),
    );
    const skipped = await bundleGitFolder(mirror, sha, 'docs', join(repo.root, 'skip.zip'));
    const skippedEntries = await readZip(await readFile(skipped.outFile));
    expect([...skippedEntries.keys()]).toEqual(['README.md', 'SUMMARY.md', 'guides/README.md']);
    expect(skipped.warnings.map((warning) => [warning.code, warning.file])).toEqual([
      ['PAGE_UNLISTED', 'guides/draft.md'],
      ['PAGE_UNLISTED', 'notes.md'],
    ]);
    expect(outline(folderToTree(skippedEntries).pages)).toEqual(['Welcome', 'Guides']);

    const appended = await bundleGitFolder(mirror, sha, 'docs', join(repo.root, 'append.zip'), {
      unlisted: 'append',
    });
    const appendedEntries = await readZip(await readFile(appended.outFile));
    expect([...appendedEntries.keys()]).toEqual([
      'README.md',
      'SUMMARY.md',
      'guides/README.md',
      'guides/draft.md',
      'notes.md',
    ]);
    expect(appended.warnings).toEqual([]);
    expect(appendedEntries.get('SUMMARY.md')?.toString()).toBe(
      `${summary}  * [](guides/draft.md)\n* [](notes.md)\n`,
    );
    // The service reads only what a summary lists: the bundle's summary lists every page.
    expect(outline(folderToTree(appendedEntries).pages)).toEqual(['Welcome', { Guides: ['Draft'] }, 'Notes']);
  });

  it('keeps names that differ only in case, with a warning', async () => {
    const sha = await commitDocs(
      under('docs', { 'README.md': '# Start\n', 'Info.png': 'A', 'info.png': 'a' }),
    );
    const result = await bundleGitFolder(mirror, sha, 'docs', out);
    expect([...(await readZip(await readFile(out))).keys()]).toEqual(['Info.png', 'README.md', 'info.png']);
    expect(result.warnings).toEqual([expect.objectContaining({ code: 'PATH_CASE_CLASH', file: 'Info.png' })]);
  });

  it('bundles a real-shaped docs folder as its working copy does, owning none of the files it leaves out', async () => {
    const folder = join(repo.work, 'docs');
    await mkdir(folder, { recursive: true });
    const docs = await writeRealShapedDocs(folder, {
      pages: 30,
      imageBytes: 200_000,
      images: 4,
      videoBytes: 0,
    });
    const sha = repo.commit('real-shaped docs');
    repo.push();
    await mirror.fetch();

    const fromGit = await bundleGitFolder(mirror, sha, 'docs', join(repo.root, 'git.zip'));
    const fromCopy = await bundleWorkingFolder(folder, join(repo.root, 'copy.zip'));
    expect((await readFile(fromCopy.outFile)).equals(await readFile(fromGit.outFile))).toBe(true);
    expect(fromCopy.warnings).toEqual(fromGit.warnings);

    expect(fromGit.leftOut.map((file) => file.path).sort()).toEqual(
      [...docs.notOwned, '.gitbook.yaml'].sort(),
    );
    const entries = await readZip(await readFile(fromGit.outFile));
    expect([...entries.keys()].sort()).toEqual(
      docs.files
        .filter(
          (path) => !docs.notOwned.includes(path) && path !== '.gitbook.yaml' && path !== 'INTRODUCTION.md',
        )
        .concat('README.md')
        .sort(),
    );
    expect(fromGit.warnings.map((warning) => [warning.code, warning.file, warning.line])).toEqual([
      ['SUMMARY_DUPLICATE', 'SUMMARY.md', docs.summaryQuirks.duplicateLine],
      ['SUMMARY_MISSING_FILE', 'SUMMARY.md', docs.summaryQuirks.missingLine],
      ['FILE_LEFT_OUT', 'README.md', undefined],
      ['PATH_CASE_CLASH', '.gitbook/assets/Diagram.png', undefined],
      ['PAGE_UNLISTED', 'drafts/next-release.md', undefined],
      ['PAGE_UNLISTED', 'notes.md', undefined],
    ]);
    // The service reads the bundle as docsync read the folder: no warning of its own.
    const seen = readOutline(entries.keys(), entries.get('SUMMARY.md')?.toString(), {});
    expect(seen.warnings.map((warning) => [warning.code, warning.line])).toEqual([
      ['SUMMARY_DUPLICATE', docs.summaryQuirks.duplicateLine],
      ['SUMMARY_MISSING_FILE', docs.summaryQuirks.missingLine],
      ['PATH_CASE_CLASH', undefined],
    ]);
  });
});
