import { describe, expect, it } from 'vitest';
import { DEFAULT_GITBOOK_LAYOUT, type GitbookLayout } from '../../../src/content/gitbook-layout.js';
import { type BundleSource, planBundle } from '../../../src/content/plan-bundle.js';
import { retargetSummaryLinks } from '../../../src/content/retarget-summary-links.js';

function file(path: string, size = 1): BundleSource<string> {
  return { path, kind: 'file', size, source: `src:${path}` };
}

function layout(overrides: Partial<GitbookLayout>): GitbookLayout {
  return { ...DEFAULT_GITBOOK_LAYOUT, ...overrides };
}

const LIMITS = { maxBytes: 1000, maxFiles: 10 };

describe('planBundle', () => {
  it('sorts entries by code units, leaves .gitbook.yaml out and counts what is not a file', () => {
    const plan = planBundle(
      [
        file('b.md', 2),
        file('a/z.md', 3),
        file('B.md', 4),
        file('.gitbook.yaml'),
        file('a/.gitbook.yaml', 5),
        { path: 'link.md', kind: 'link', size: 7, source: 'x' },
        { path: 'vendor', kind: 'submodule', size: 0, source: 'y' },
      ],
      DEFAULT_GITBOOK_LAYOUT,
      LIMITS,
    );
    expect(plan.entries.map((entry) => entry.name)).toEqual(['B.md', 'a/.gitbook.yaml', 'a/z.md', 'b.md']);
    expect(plan.entries[0]).toEqual({ name: 'B.md', size: 4, source: 'src:B.md' });
    expect(plan).toMatchObject({ bytes: 14, skipped: 2, readmeRenamedFrom: undefined });
  });

  it('names the configured readme and summary README.md and SUMMARY.md', () => {
    const plan = planBundle(
      [file('intro.md'), file('toc.md'), file('guide.md')],
      layout({ readme: 'intro.md', summary: 'toc.md' }),
      LIMITS,
    );
    expect(plan.entries.map((entry) => [entry.name, entry.source])).toEqual([
      ['README.md', 'src:intro.md'],
      ['SUMMARY.md', 'src:toc.md'],
      ['guide.md', 'src:guide.md'],
    ]);
    expect(plan.readmeRenamedFrom).toBe('intro.md');
  });

  it('refuses a configured file that is missing, nested, or would replace one that is there', () => {
    expect(() => planBundle([file('README.md')], layout({ readme: 'intro.md' }), LIMITS)).toThrow(
      'intro.md, named in .gitbook.yaml, is not in the docs root',
    );
    expect(() => planBundle([file('nav/toc.md')], layout({ summary: 'nav/toc.md' }), LIMITS)).toThrow(
      '.gitbook.yaml structure.summary nav/toc.md must be at the top of the docs root',
    );
    expect(() =>
      planBundle([file('intro.md'), file('README.md')], layout({ readme: 'intro.md' }), LIMITS),
    ).toThrow('README.md and the intro.md named in .gitbook.yaml would both be README.md');
  });

  it('refuses unsafe paths and paths that normalise alike', () => {
    expect(() => planBundle([file('../up.md')], DEFAULT_GITBOOK_LAYOUT, LIMITS)).toThrow(
      expect.objectContaining({ code: 'PATH_UNSAFE' }),
    );
    expect(() => planBundle([file('a/b.md'), file('a\\b.md')], DEFAULT_GITBOOK_LAYOUT, LIMITS)).toThrow(
      'the docs root holds a/b.md twice',
    );
  });

  it('refuses more files or bytes than the limits', () => {
    const many = Array.from({ length: 11 }, (_, index) => file(`p${index}.md`));
    expect(() => planBundle(many, DEFAULT_GITBOOK_LAYOUT, LIMITS)).toThrow(
      expect.objectContaining({ code: 'ARCHIVE_TOO_MANY_ENTRIES' }),
    );
    expect(() =>
      planBundle([file('a.bin', 600), file('b.bin', 600)], DEFAULT_GITBOOK_LAYOUT, LIMITS),
    ).toThrow(expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE' }));
    expect(planBundle([file('a.bin', 1000)], DEFAULT_GITBOOK_LAYOUT, LIMITS).bytes).toBe(1000);
  });
});

describe('retargetSummaryLinks', () => {
  it('points every list link to the renamed readme at README.md, keeping the rest of the line', () => {
    const summary = [
      '# Summary',
      '',
      '* [Intro](intro.md)',
      '* [Guide](guide.md)',
      '  - [Back to the intro](./intro.md "Start")',
      '1. [Spaced](<intro.md>)',
      'Text mentioning (intro.md) stays.',
      '',
    ].join('\n');
    expect(retargetSummaryLinks(summary, 'intro.md', 'README.md')).toBe(
      [
        '# Summary',
        '',
        '* [Intro](README.md)',
        '* [Guide](guide.md)',
        '  - [Back to the intro](README.md "Start")',
        '1. [Spaced](README.md)',
        'Text mentioning (intro.md) stays.',
        '',
      ].join('\n'),
    );
  });

  it('handles titles with brackets and leaves a summary without such links as it is', () => {
    expect(retargetSummaryLinks('* [Setup [beta]](intro.md)\r\n', 'intro.md', 'README.md')).toBe(
      '* [Setup [beta]](README.md)\r\n',
    );
    const other = '* [Guide](guide.md)\n';
    expect(retargetSummaryLinks(other, 'intro.md', 'README.md')).toBe(other);
  });
});
