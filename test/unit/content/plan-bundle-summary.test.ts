import { describe, expect, it } from 'vitest';
import { appendUnlistedEntries } from '../../../src/content/append-unlisted-entries.js';
import { readOutline } from '../../../src/content/read-outline.js';
import { formatDestination, retargetSummaryLinks } from '../../../src/content/retarget-summary-links.js';

const toReadme = (entry: { kind: string; path?: string }) =>
  entry.kind === 'document' && entry.path === 'intro.md' ? 'README.md' : undefined;

describe('retargetSummaryLinks', () => {
  it('points every entry linking the renamed readme at README.md, keeping the rest of the line', () => {
    const summary = [
      '# Summary',
      '',
      '* [Intro](intro.md)',
      '* [Guide](guide.md)',
      '  - [Back to the intro](./intro.md "Start")',
      '1. [Spaced](<intro.md>)',
      '* [Anchored](/intro.md#top) and more text',
      'Text mentioning (intro.md) stays, and so does [a link](intro.md) outside the list.',
      '',
    ].join('\n');
    expect(retargetSummaryLinks(summary, 'SUMMARY.md', toReadme)).toBe(
      [
        '# Summary',
        '',
        '* [Intro](README.md)',
        '* [Guide](guide.md)',
        '  - [Back to the intro](README.md "Start")',
        '1. [Spaced](README.md)',
        '* [Anchored](README.md) and more text',
        'Text mentioning (intro.md) stays, and so does [a link](intro.md) outside the list.',
        '',
      ].join('\n'),
    );
  });

  it('handles titles with brackets and CRLF lines, and leaves a summary without such links as it is', () => {
    expect(retargetSummaryLinks('* [Setup [beta]](intro.md)\r\n', 'SUMMARY.md', toReadme)).toBe(
      '* [Setup [beta]](README.md)\r\n',
    );
    const other = '* [Guide](guide.md)\n- Overview\n* [Site](https://example.com/intro.md)\n';
    expect(retargetSummaryLinks(other, 'SUMMARY.md', toReadme)).toBe(other);
  });

  it('writes paths that read back as themselves', () => {
    expect(formatDestination('guides/My page (old)#1.md')).toBe('guides/My%20page%20%28old%29%231.md');
    const summary = `* [Odd](${formatDestination('a b/100% (sure).md')})\n`;
    expect(readOutline(['a b/100% (sure).md'], summary, {}).pages).toEqual([
      expect.objectContaining({ kind: 'document', path: 'a b/100% (sure).md', title: 'Odd' }),
    ]);
  });
});

describe('appendUnlistedEntries', () => {
  /** The summary with the unlisted pages of `paths` added, and what the service's rule reads back. */
  function appended(paths: string[], summary: string) {
    const outline = readOutline(paths, summary, { unlisted: 'append' });
    const text = appendUnlistedEntries(summary, outline.pages, 'README.md');
    const seen = readOutline(paths, text, { unlisted: 'skip' });
    return { text, outline: outline.pages, seen };
  }

  it('keeps every original line and adds entries under the nearest folder readme, indented as its children', () => {
    const summary = [
      '# Docs',
      '',
      '- [Welcome](README.md)',
      '- [Guides](guides/README.md)',
      '    - [Install](guides/install.md)',
      '- [FAQ](faq.md)',
      '',
    ].join('\n');
    const { text, outline, seen } = appended(
      ['README.md', 'faq.md', 'guides/README.md', 'guides/install.md', 'guides/tuning.md', 'notes.md'],
      summary,
    );
    expect(text).toBe(
      [
        '# Docs',
        '',
        '- [Welcome](README.md)',
        '- [Guides](guides/README.md)',
        '    - [Install](guides/install.md)',
        '    - [](guides/tuning.md)',
        '- [FAQ](faq.md)',
        '- [](notes.md)',
        '',
      ].join('\n'),
    );
    expect(seen.warnings).toEqual([]);
    expect(paths(seen.pages)).toEqual(paths(outline));
  });

  it('ends the last group before adding top-level pages, and keeps CRLF and a missing last newline', () => {
    const summary = '* [Welcome](README.md)\r\n\r\n## Reference\r\n\r\n* [API](api.md)';
    const { text, outline, seen } = appended(['README.md', 'api.md', 'zz.md'], summary);
    expect(text).toBe(
      '* [Welcome](README.md)\r\n\r\n## Reference\r\n\r\n* [API](api.md)\r\n\r\n---\r\n\r\n* [](zz.md)\r\n',
    );
    expect(seen.pages.map((page) => page.kind)).toEqual(['document', 'group', 'document']);
    expect(paths(seen.pages)).toEqual(paths(outline));
  });

  it('nests unlisted pages under an unlisted folder readme, and changes nothing when all are listed', () => {
    const { text, seen, outline } = appended(
      ['README.md', 'api/README.md', 'api/auth.md'],
      '* [Welcome](README.md)\n',
    );
    expect(text).toBe('* [Welcome](README.md)\n* [](api/README.md)\n  * [](api/auth.md)\n');
    expect(paths(seen.pages)).toEqual(paths(outline));
    const listed = '* [Welcome](README.md)\n* [API](api.md)\n';
    expect(appended(['README.md', 'api.md'], listed).text).toBe(listed);
  });
});

type Entry = ReturnType<typeof readOutline>['pages'][number];

/** The outline as nested paths and kinds, titles aside. */
function paths(pages: readonly Entry[]): unknown[] {
  return pages.map((page) =>
    page.kind === 'link'
      ? page.href
      : { [page.kind === 'document' ? page.path : page.kind]: paths(page.pages) },
  );
}
