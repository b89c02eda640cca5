import { describe, expect, it } from 'vitest';
import { DEFAULT_GITBOOK_LAYOUT, type GitbookLayout } from '../../../src/content/gitbook-layout.js';
import { type BundleSource, planBundle } from '../../../src/content/plan-bundle.js';

function file(path: string): BundleSource<string> {
  return { path, kind: 'file', size: 1, source: path };
}

function readmeWarnings(
  paths: string[],
  summaryText?: string,
  layout: GitbookLayout = DEFAULT_GITBOOK_LAYOUT,
) {
  const plan = planBundle(paths.map(file), layout, summaryText === undefined ? {} : { summaryText });
  return plan.warnings.filter((warning) => warning.code === 'README_MISSING');
}

describe('planBundle without a readme', () => {
  it("names the summary's first page, which the service opens first, and the fix", () => {
    const summary = '# Summary\n\n## Start\n\n* [Install](guides/install.md)\n* [About](about.md)\n';
    expect(readmeWarnings(['SUMMARY.md', 'about.md', 'guides/install.md'], summary)).toEqual([
      {
        code: 'README_MISSING',
        file: 'README.md',
        message:
          'the docs root has no README.md: the service opens guides/install.md, the first entry of SUMMARY.md, first; add README.md, or set structure.readme in .gitbook.yaml to the page to open first',
      },
    ]);
  });

  it('names an empty page when the summary starts with an entry without a file', () => {
    const summary = '* Overview\n  * [Install](install.md)\n';
    const [warning] = readmeWarnings(['SUMMARY.md', 'install.md'], summary);
    expect(warning?.message).toContain(
      'opens the empty page "Overview" (line 1), the first entry of SUMMARY.md, first',
    );
  });

  it('names the first page by path when there is no summary', () => {
    const [warning] = readmeWarnings([
      'zoo.md',
      'intro.md',
      'api/ref.md',
      'api/README.md',
      '.gitbook/assets/a.png',
    ]);
    expect(warning?.message).toContain('the service opens api/README.md, the first page by path, first');
  });

  it('says the space has no page when the folder holds none', () => {
    const [warning] = readmeWarnings(['.gitbook/assets/a.png']);
    expect(warning?.message).toBe(
      'the docs root has no README.md: the space has no page to open first; add README.md, or set structure.readme in .gitbook.yaml to the page to open first',
    );
  });

  it('warns about nothing when the readme is there, listed or not, default or configured', () => {
    expect(readmeWarnings(['README.md', 'a.md'])).toEqual([]);
    expect(readmeWarnings(['SUMMARY.md', 'README.md', 'a.md'], '* [A](a.md)\n')).toEqual([]);
    expect(
      readmeWarnings(['SUMMARY.md', 'INTRO.md', 'a.md'], '* [Intro](INTRO.md)\n* [A](a.md)\n', {
        ...DEFAULT_GITBOOK_LAYOUT,
        readme: 'INTRO.md',
      }),
    ).toEqual([]);
  });
});
