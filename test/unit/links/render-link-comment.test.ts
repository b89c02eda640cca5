import { describe, expect, it } from 'vitest';
import type { BrokenLink } from '../../../src/import/change-request-links.js';
import {
  codeSpan,
  isLinkCommentMarkdown,
  LINK_COMMENT_MARKER,
  LINK_COMMENT_MAX_LISTED,
  renderLinkComment,
} from '../../../src/links/render-link-comment.js';

const link = (pagePath: string | undefined, target: string, pageTitle = 'Title'): BrokenLink => ({
  pageId: `id-${pagePath ?? pageTitle}`,
  pageTitle,
  pagePath,
  target,
});

describe('renderLinkComment', () => {
  it('lists the links by page under the marker, pages and targets sorted', () => {
    const text = renderLinkComment([
      link('guides/install', 'missing.md'),
      link('faq', 'gone.md'),
      link('guides/install', 'images/lost.png'),
    ]);
    expect(text).toBe(
      [
        LINK_COMMENT_MARKER,
        '### 3 broken links',
        '',
        'Pages of this change request that link to something that does not exist:',
        '',
        '- `faq`',
        '  - `gone.md`',
        '- `guides/install`',
        '  - `images/lost.png`',
        '  - `missing.md`',
        '',
        '_docsync edits this comment when the list changes and resolves it once every link is fixed._',
      ].join('\n'),
    );
  });

  it('gives the same text whatever order the service lists the links in', () => {
    const links = [link('a', 'x.md'), link('b', 'y.md'), link('a', 'w.md'), link(undefined, 'z.md', 'Intro')];
    expect(renderLinkComment([...links].reverse())).toBe(renderLinkComment(links));
  });

  it('names a page by its title when it has no path, and counts a repeated link once', () => {
    const text = renderLinkComment([link(undefined, 'x.md', 'Intro'), link(undefined, 'x.md', 'Intro')]);
    expect(text).toContain('### 1 broken link\n');
    expect(text).toContain('- `Intro`\n  - `x.md`');
  });

  it('says there are none once every link is fixed', () => {
    expect(renderLinkComment([])).toBe(
      `${LINK_COMMENT_MARKER}\n### No broken links\n\nEvery link listed here before is fixed.`,
    );
  });

  it('lists at most the cap and says how many more', () => {
    const many = Array.from({ length: LINK_COMMENT_MAX_LISTED + 5 }, (_, i) =>
      link('page', `t${String(i).padStart(4, '0')}.md`),
    );
    const text = renderLinkComment(many);
    expect(text.match(/^ {2}- /gm)).toHaveLength(LINK_COMMENT_MAX_LISTED);
    expect(text).toContain('…and 5 more.');
  });

  it('keeps backticks and line breaks of titles and addresses from breaking out of the code span', () => {
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('line\nbreak')).toBe('`line break`');
  });
});

describe('isLinkCommentMarkdown', () => {
  it('recognises the marker on the first line only', () => {
    expect(isLinkCommentMarkdown(renderLinkComment([]))).toBe(true);
    expect(isLinkCommentMarkdown(`  ${LINK_COMMENT_MARKER}  \nrest`)).toBe(true);
    expect(isLinkCommentMarkdown(`> quoted\n${LINK_COMMENT_MARKER}`)).toBe(false);
    expect(isLinkCommentMarkdown('')).toBe(false);
  });
});
