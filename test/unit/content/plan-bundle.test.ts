import { describe, expect, it } from 'vitest';
import { SERVICE_IMPORT_LIMITS } from '../../../src/api/schemas/service-import-limits.js';
import { ContentError } from '../../../src/content/content-error.js';
import { DEFAULT_GITBOOK_LAYOUT, type GitbookLayout } from '../../../src/content/gitbook-layout.js';
import {
  type BundlePlanOptions,
  type BundleSource,
  planBundle,
  summarySource,
} from '../../../src/content/plan-bundle.js';
import { readOutline } from '../../../src/content/read-outline.js';

const MIB = 1024 * 1024;

function file(path: string, size = 1): BundleSource<string> {
  return { path, kind: 'file', size, source: `src:${path}` };
}

function layout(overrides: Partial<GitbookLayout>): GitbookLayout {
  return { ...DEFAULT_GITBOOK_LAYOUT, ...overrides };
}

const LIMITS = { maxBytes: 1000, maxFileBytes: 600, maxFiles: 10 };

function plan(
  sources: BundleSource<string>[],
  options: BundlePlanOptions = {},
  gitbook = DEFAULT_GITBOOK_LAYOUT,
) {
  return planBundle(sources, gitbook, { limits: LIMITS, ...options });
}

function names(entries: ReadonlyArray<{ name: string }>): string[] {
  return entries.map((entry) => entry.name);
}

describe('planBundle', () => {
  it('sorts entries by code units, and leaves out what the service does not hold', () => {
    const result = plan([
      file('b.md', 2),
      file('a/z.md', 3),
      file('C.md', 4),
      file('.gitbook.yaml'),
      file('.gitbook/assets/logo.png', 5),
      file('.gitignore'),
      file('guides/.DS_Store'),
      file('.github/workflows/docs.yml'),
      file('.gitbook/.cache'),
      file('scripts/.gitbook.yaml'),
      file('scripts/build.sh'),
      { path: 'link.md', kind: 'link', size: 7, source: 'x' },
      { path: 'vendor', kind: 'submodule', size: 0, source: 'y' },
    ]);
    expect(names(result.entries)).toEqual(['.gitbook/assets/logo.png', 'C.md', 'a/z.md', 'b.md']);
    expect(result.entries[1]).toEqual({ name: 'C.md', path: 'C.md', size: 4, source: 'src:C.md' });
    expect(result).toMatchObject({ bytes: 14, skipped: 2, readmeRenamedFrom: undefined });
    // No README.md: the one warning says which page the service opens first.
    expect(result.warnings.map((warning) => warning.code)).toEqual(['README_MISSING']);
    expect(result.leftOut.map((left) => [left.path, left.reason])).toEqual([
      ['.gitbook.yaml', 'configuration'],
      ['.gitignore', 'dotfile'],
      ['guides/.DS_Store', 'dotfile'],
      ['.github/workflows/docs.yml', 'dotfile'],
      ['.gitbook/.cache', 'dotfile'],
      ['scripts/.gitbook.yaml', 'other-docs-folder'],
      ['scripts/build.sh', 'other-docs-folder'],
      ['link.md', 'not-a-file'],
      ['vendor', 'not-a-file'],
    ]);
  });

  it('leaves a name that is not UTF-8 out with a warning where it would be content, and quietly elsewhere', () => {
    const notUtf8 = (path: string): BundleSource<string> => ({
      path,
      kind: 'name-not-utf8',
      size: 0,
      source: '',
    });
    const result = plan([
      file('README.md'),
      notUtf8('caf\\xe9.md'),
      notUtf8('guides/r\\xe9sum\\xe9'),
      notUtf8('.github/caf\\xe9.yml'),
      notUtf8('.caf\\xe9'),
      file('scripts/.gitbook.yaml'),
      notUtf8('scripts/caf\\xe9.md'),
    ]);
    expect(names(result.entries)).toEqual(['README.md']);
    expect(result.warnings.map((warning) => [warning.code, warning.file])).toEqual([
      ['FILE_LEFT_OUT', 'caf\\xe9.md'],
      ['FILE_LEFT_OUT', 'guides/r\\xe9sum\\xe9'],
    ]);
    expect(result.leftOut.map((left) => [left.path, left.reason])).toEqual([
      ['caf\\xe9.md', 'name-not-utf8'],
      ['guides/r\\xe9sum\\xe9', 'name-not-utf8'],
      ['.github/caf\\xe9.yml', 'dotfile'],
      ['.caf\\xe9', 'dotfile'],
      ['scripts/.gitbook.yaml', 'other-docs-folder'],
      ['scripts/caf\\xe9.md', 'other-docs-folder'],
    ]);
    expect(result.skipped).toBe(0);
  });

  it('names the configured readme and summary README.md and SUMMARY.md', () => {
    const toc = '* [Intro](intro.md)\n* [Guide](guide.md)\n';
    const result = plan(
      [file('intro.md'), file('toc.md', toc.length), file('guide.md')],
      { summaryText: toc },
      layout({ readme: 'intro.md', summary: 'toc.md' }),
    );
    expect(result.entries.map((entry) => [entry.name, entry.path, entry.source])).toEqual([
      ['README.md', 'intro.md', 'src:intro.md'],
      ['SUMMARY.md', 'toc.md', 'src:toc.md'],
      ['guide.md', 'guide.md', 'src:guide.md'],
    ]);
    expect(result.readmeRenamedFrom).toBe('intro.md');
    const summary = result.entries.find((entry) => entry.name === 'SUMMARY.md');
    expect(summary?.data?.toString()).toBe('* [Intro](README.md)\n* [Guide](guide.md)\n');
    expect(summary?.size).toBe(summary?.data?.length);
  });

  it('leaves the git host README.md beside a configured readme out, with a warning naming both', () => {
    const summary = [
      '# Summary',
      '* [Introduction](INTRODUCTION.md)',
      '* [For GitHub](README.md)',
      '  * [Setup](setup.md)',
      '',
    ].join('\n');
    const result = plan(
      [file('INTRODUCTION.md'), file('README.md'), file('SUMMARY.md'), file('setup.md')],
      { summaryText: summary },
      layout({ readme: 'INTRODUCTION.md' }),
    );
    expect(names(result.entries)).toEqual(['README.md', 'SUMMARY.md', 'setup.md']);
    expect(result.entries[0]?.source).toBe('src:INTRODUCTION.md');
    expect(result.leftOut).toEqual([
      { path: 'README.md', size: 1, source: 'src:README.md', reason: 'git-readme' },
    ]);
    expect(result.warnings).toEqual([
      {
        code: 'SUMMARY_MISSING_FILE',
        file: 'SUMMARY.md',
        line: 3,
        message: expect.stringMatching(
          /^README\.md is the git host's page and is not imported .*link INTRODUCTION\.md/,
        ),
      },
      {
        code: 'FILE_LEFT_OUT',
        file: 'README.md',
        message:
          "README.md is the git host's page; .gitbook.yaml names INTRODUCTION.md as the first page: README.md stays in git and is not imported",
      },
    ]);
    // The service reads the bundle's summary as docsync read git's: the readme first, the git
    // README's entry read past (it names a file the bundle does not hold), its child in its place.
    const bundled = result.entries.find((entry) => entry.name === 'SUMMARY.md')?.data?.toString() ?? '';
    expect(bundled).toBe(
      [
        '# Summary',
        '* [Introduction](README.md)',
        '* [For GitHub](INTRODUCTION.md)',
        '  * [Setup](setup.md)',
        '',
      ].join('\n'),
    );
    const seen = readOutline(names(result.entries), bundled, {});
    expect(seen.pages.map((page) => (page.kind === 'document' ? page.path : page.kind))).toEqual([
      'README.md',
      'setup.md',
    ]);
  });

  it('leaves a SUMMARY.md beside a configured summary out, with a warning', () => {
    const result = plan(
      [file('README.md'), file('toc.md'), file('SUMMARY.md')],
      { summaryText: '' },
      layout({ summary: 'toc.md' }),
    );
    expect(names(result.entries)).toEqual(['README.md', 'SUMMARY.md']);
    expect(result.entries[1]?.path).toBe('toc.md');
    expect(result.warnings).toEqual([
      expect.objectContaining({
        code: 'FILE_LEFT_OUT',
        file: 'SUMMARY.md',
        message: expect.stringContaining('names toc.md'),
      }),
    ]);
  });

  it('refuses a configured file that is missing or nested, naming the key and the fix', () => {
    expect(() => plan([file('README.md')], {}, layout({ readme: 'intro.md' }))).toThrow(
      'intro.md, named by structure.readme in .gitbook.yaml, is not in the docs root: add it, or correct structure.readme',
    );
    expect(() => plan([file('nav/toc.md')], {}, layout({ summary: 'nav/toc.md' }))).toThrow(
      '.gitbook.yaml structure.summary nav/toc.md must be at the top of the docs root',
    );
  });

  it('refuses unsafe paths and paths that normalise alike', () => {
    expect(() => plan([file('../up.md')])).toThrow(expect.objectContaining({ code: 'PATH_UNSAFE' }));
    expect(() => plan([file('a/b.md'), file('a\\b.md')])).toThrow('the docs root holds a/b.md twice');
  });

  it('needs the summary text when the listing holds a summary', () => {
    expect(() => plan([file('README.md'), file('SUMMARY.md')])).toThrow(
      'planBundle needs the text of SUMMARY.md',
    );
    const sources = [file('README.md'), file('toc.md')];
    expect(summarySource(sources, layout({ summary: 'toc.md' }))).toBe(sources[1]);
    expect(summarySource(sources, DEFAULT_GITBOOK_LAYOUT)).toBeUndefined();
  });
});

describe('planBundle limits', () => {
  it('defaults to the limits of the service', () => {
    const sources = [file('README.md'), file('video.mp4', SERVICE_IMPORT_LIMITS.maxFileBytes + 1)];
    expect(() => planBundle(sources, DEFAULT_GITBOOK_LAYOUT)).toThrow(
      expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE', path: 'video.mp4' }),
    );
    expect(planBundle([file('README.md'), file('video.mp4', 20 * MIB)], DEFAULT_GITBOOK_LAYOUT).bytes).toBe(
      20 * MIB + 1,
    );
  });

  it('refuses a file over the per-file limit, naming it and the setting that leaves it out', () => {
    const sources = [file('README.md', 10), file('assets/walkthrough.mp4', 60 * MIB), file('a.png', 2 * MIB)];
    const limits = { maxBytes: 50 * MIB, maxFileBytes: 20 * MIB, maxFiles: 100 };
    let message = '';
    try {
      planBundle(sources, DEFAULT_GITBOOK_LAYOUT, { limits });
    } catch (error) {
      expect(error).toMatchObject({
        name: 'BundleTooLargeError',
        code: 'ARCHIVE_TOO_LARGE',
        path: 'assets/walkthrough.mp4',
      });
      expect(error).toBeInstanceOf(ContentError);
      message = (error as Error).message;
    }
    expect(message).toBe(
      'a file is over the limit of 20 MiB per file: assets/walkthrough.mp4 (60 MiB); ' +
        'the docs root has 62 MiB in 3 files to import, over the limit of 50 MiB per import. ' +
        'Set import.skipFilesOver of the mapping (import: { skipFilesOver: 20MiB }), the largest size that makes the rest fit: ' +
        'it leaves out 1 file, listed as a warning and kept in git: assets/walkthrough.mp4 (60 MiB). ' +
        'Or move large files out of the docs root',
    );

    const skipped = planBundle(sources, DEFAULT_GITBOOK_LAYOUT, { limits, skipFilesOver: 5 * MIB });
    expect(names(skipped.entries)).toEqual(['README.md', 'a.png']);
    expect(skipped.leftOut).toEqual([
      {
        path: 'assets/walkthrough.mp4',
        size: 60 * MIB,
        source: 'src:assets/walkthrough.mp4',
        reason: 'over-size',
      },
    ]);
    expect(skipped.warnings).toEqual([
      {
        code: 'FILE_LEFT_OUT',
        file: 'assets/walkthrough.mp4',
        message:
          'assets/walkthrough.mp4 is 60 MiB, over import.skipFilesOver (5 MiB): it stays in git and is not imported',
      },
    ]);
  });

  it('refuses a folder over the total, and proposes lowering the setting to the largest size that fits', () => {
    const sources = Array.from({ length: 12 }, (_, index) =>
      file(`img/${String(index).padStart(2, '0')}.png`, (index + 1) * MIB),
    );
    const limits = { maxBytes: 50 * MIB, maxFileBytes: 20 * MIB, maxFiles: 100 };
    const refused = () => planBundle(sources, DEFAULT_GITBOOK_LAYOUT, { limits, skipFilesOver: 20 * MIB });
    expect(refused).toThrow(expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE', path: 'img/11.png' }));
    // Leaving out the three largest (33 MiB) is the least that fits: any size from 9 MiB to just
    // under 10 MiB does it, 9.75 MiB the roundest of the largest.
    expect(refused).toThrow(
      'the docs root has 78 MiB in 12 files to import, over the limit of 50 MiB per import. ' +
        'Lower import.skipFilesOver of the mapping from 20 MiB to 9.75MiB (import: { skipFilesOver: 9.75MiB }), ' +
        'the largest size that makes the rest fit: it leaves out 3 files, each listed as a warning and kept in git: ' +
        'img/11.png (12 MiB), img/10.png (11 MiB), img/09.png (10 MiB). Or move large files out of the docs root',
    );
    expect(planBundle(sources, DEFAULT_GITBOOK_LAYOUT, { limits, skipFilesOver: 9.75 * MIB }).bytes).toBe(
      45 * MIB,
    );
  });

  it('refuses a folder whose pages alone are over the total, proposing no setting', () => {
    const sources = [file('README.md', 30 * MIB), file('big.md', 30 * MIB), file('a.png', MIB)];
    const limits = { maxBytes: 50 * MIB, maxFileBytes: 40 * MIB, maxFiles: 100 };
    expect(() => planBundle(sources, DEFAULT_GITBOOK_LAYOUT, { limits, unlisted: 'append' })).toThrow(
      'the docs root has 61 MiB in 3 files to import, over the limit of 50 MiB per import; the largest files: ' +
        'README.md (30 MiB), big.md (30 MiB), a.png (1 MiB). ' +
        'No import.skipFilesOver setting makes the folder fit without leaving out pages: the pages alone ' +
        '(2 markdown files) hold 60 MiB, over the limit of 50 MiB per import, so leaving out every other file ' +
        'would not be enough. Make the pages smaller, or split the docs root into folders with their own ' +
        '.gitbook.yaml, each imported on its own',
    );
  });

  it('refuses more files than the limit, naming the folders holding the most', () => {
    const many = [
      ...Array.from({ length: 8 }, (_, index) => file(`assets/${index}.png`)),
      ...Array.from({ length: 3 }, (_, index) => file(`p${index}.md`)),
    ];
    expect(() => plan(many)).toThrow(
      expect.objectContaining({
        code: 'ARCHIVE_TOO_MANY_ENTRIES',
        message: expect.stringMatching(
          /^the docs root has 11 files to import, over the limit of 10 per import; the folders with the most: assets \(8\), \(root\) \(3\)\./,
        ),
      }),
    );
    // What the plan leaves out does not count.
    expect(plan([...many.slice(0, 10), file('.gitignore')]).entries).toHaveLength(10);
  });
});

describe('planBundle outline', () => {
  const folder = [
    file('README.md'),
    file('SUMMARY.md'),
    file('guide.md'),
    file('guides/README.md'),
    file('guides/deep.md'),
    file('notes.md'),
  ];
  const summary = '# Summary\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n* [Guide](guide.md)\n';

  it('leaves pages no summary lists out under skip, each a PAGE_UNLISTED warning', () => {
    const result = plan(folder, { summaryText: summary });
    expect(names(result.entries)).toEqual(['README.md', 'SUMMARY.md', 'guide.md', 'guides/README.md']);
    expect(result.leftOut.map((left) => [left.path, left.reason])).toEqual([
      ['guides/deep.md', 'unlisted'],
      ['notes.md', 'unlisted'],
    ]);
    expect(result.warnings.map((warning) => [warning.code, warning.file])).toEqual([
      ['PAGE_UNLISTED', 'guides/deep.md'],
      ['PAGE_UNLISTED', 'notes.md'],
    ]);
    expect(result.entries.find((entry) => entry.name === 'SUMMARY.md')?.data).toBeUndefined();
  });

  it('lists unlisted pages in the bundled summary under append, so that the service sees them all', () => {
    const result = plan(folder, { summaryText: summary, unlisted: 'append' });
    expect(names(result.entries)).toEqual([
      'README.md',
      'SUMMARY.md',
      'guide.md',
      'guides/README.md',
      'guides/deep.md',
      'notes.md',
    ]);
    expect(result.warnings).toEqual([]);
    const bundled = result.entries.find((entry) => entry.name === 'SUMMARY.md')?.data?.toString() ?? '';
    expect(bundled).toBe(
      `${summary.replace('(guides/README.md)\n', '(guides/README.md)\n  * [](guides/deep.md)\n')}* [](notes.md)\n`,
    );
    // Read with the service's rule, the bundle gives the outline docsync's append rule gave.
    const seen = readOutline(names(result.entries), bundled, { unlisted: 'skip' });
    expect(seen.warnings).toEqual([]);
    expect(seen.pages).toEqual(result.outline.map(withoutLines));
  });

  it('sends every page when there is no summary', () => {
    const result = plan(folder.filter((source) => source.path !== 'SUMMARY.md'));
    expect(result.entries).toHaveLength(5);
    expect(result.warnings).toEqual([]);
  });

  it('keeps importing with the warnings of a summary with a duplicate entry and a missing file', () => {
    const text =
      '* [Welcome](README.md)\n* [Guide](guide.md)\n  * [Guide again](/guide.md)\n* [Gone](gone.md)\n';
    const result = plan([file('README.md'), file('SUMMARY.md'), file('guide.md')], { summaryText: text });
    expect(names(result.entries)).toEqual(['README.md', 'SUMMARY.md', 'guide.md']);
    expect(result.warnings.map((warning) => [warning.code, warning.file, warning.line])).toEqual([
      ['SUMMARY_DUPLICATE', 'SUMMARY.md', 3],
      ['SUMMARY_MISSING_FILE', 'SUMMARY.md', 4],
    ]);
  });

  it('says why a listed page is missing when the plan left it out', () => {
    const text = '* [Welcome](README.md)\n* [Big](big.md)\n';
    const result = plan([file('README.md'), file('SUMMARY.md'), file('big.md', 500)], {
      summaryText: text,
      skipFilesOver: 100,
    });
    expect(result.warnings.map((warning) => [warning.code, warning.file, warning.line])).toEqual([
      ['SUMMARY_MISSING_FILE', 'SUMMARY.md', 2],
      ['FILE_LEFT_OUT', 'big.md', undefined],
    ]);
    expect(result.warnings[0]?.message).toMatch(/^big\.md is over import\.skipFilesOver and is not imported/);
  });

  it('warns about names that differ only in case, and keeps both', () => {
    const result = plan([file('README.md'), file('Info.png'), file('info.png')]);
    expect(names(result.entries)).toEqual(['Info.png', 'README.md', 'info.png']);
    expect(result.warnings).toEqual([expect.objectContaining({ code: 'PATH_CASE_CLASH', file: 'Info.png' })]);
    expect(result.warnings[0]?.message).toContain('Info.png and info.png');
  });
});

type Entry = ReturnType<typeof readOutline>['pages'][number];

/** An outline entry as the bundle's summary lists it: every page with a line, titles as written. */
function withoutLines(entry: Entry): unknown {
  if (entry.kind === 'link') return expect.objectContaining({ kind: 'link', href: entry.href });
  return expect.objectContaining({
    kind: entry.kind,
    ...(entry.kind === 'document' ? { path: entry.path } : {}),
    pages: entry.pages.map(withoutLines),
  });
}
