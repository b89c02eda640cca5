import { describe, expect, it } from 'vitest';
import type { BrokenLink } from '../../../src/links/broken-link.js';
import {
  type ImportWarnings,
  NO_IMPORT_WARNINGS,
  type StoredWarning,
} from '../../../src/links/import-warnings-for.js';
import {
  codeSpan,
  isLinkCommentMarkdown,
  LINK_COMMENT_MARKER,
  LINK_COMMENT_MAX_LISTED,
  LINK_COMMENT_MAX_WARNINGS,
  markdownText,
  renderLinkComment,
} from '../../../src/links/render-link-comment.js';

const link = (pagePath: string | undefined, target: string, pageTitle = 'Title'): BrokenLink => ({
  pageId: `id-${pagePath ?? pageTitle}`,
  pageTitle,
  pagePath,
  target,
});

/** The comment's text for broken links alone, as before import warnings existed. */
const render = (broken: readonly BrokenLink[], warnings: ImportWarnings = NO_IMPORT_WARNINGS) =>
  renderLinkComment({ broken, warnings });

const warning = (file: string, line: number | undefined, message: string): StoredWarning => ({
  code: 'SUMMARY_MISSING_FILE',
  file,
  ...(line === undefined ? {} : { line }),
  message,
});

describe('renderLinkComment', () => {
  it('lists the links by page under the marker, pages and targets sorted', () => {
    const text = render([
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
    expect(render([...links].reverse())).toBe(render(links));
  });

  it('names a page by its title when it has no path, and counts a repeated link once', () => {
    const text = render([link(undefined, 'x.md', 'Intro'), link(undefined, 'x.md', 'Intro')]);
    expect(text).toContain('### 1 broken link\n');
    expect(text).toContain('- `Intro`\n  - `x.md`');
  });

  it('says there is nothing to fix once every link is fixed', () => {
    expect(render([])).toBe(
      `${LINK_COMMENT_MARKER}\n### Nothing to fix\n\nNo broken links, and no import warnings.`,
    );
  });

  it('lists at most the cap and says how many more', () => {
    const many = Array.from({ length: LINK_COMMENT_MAX_LISTED + 5 }, (_, i) =>
      link('page', `t${String(i).padStart(4, '0')}.md`),
    );
    const text = render(many);
    expect(text.match(/^ {2}- /gm)).toHaveLength(LINK_COMMENT_MAX_LISTED);
    expect(text).toContain('…and 5 more.');
  });

  it('keeps backticks and line breaks of titles and addresses from breaking out of the code span', () => {
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x`')).toBe('`` `x` ``');
    expect(codeSpan('line\nbreak')).toBe('`line break`');
  });
});

describe('renderLinkComment with the import warnings', () => {
  const warnings: ImportWarnings = {
    listed: [
      warning('SUMMARY.md', 4, 'guides/gone.md is not in the folder: the entry is skipped.'),
      warning('drafts/notes.md', undefined, 'No SUMMARY.md entry lists this page: it is not imported.'),
    ],
    count: 2,
  };

  it('lists them in their own section below the broken links, in the import order, with where they point', () => {
    expect(render([link('faq', 'gone.md')], warnings)).toBe(
      [
        LINK_COMMENT_MARKER,
        '### 1 broken link',
        '',
        'Pages of this change request that link to something that does not exist:',
        '',
        '- `faq`',
        '  - `gone.md`',
        '',
        '### 2 import warnings',
        '',
        'What docsync read past in the folder when it imported this change request; fix it in git and the next import updates this list:',
        '',
        '- `SUMMARY.md:4`: guides/gone.md is not in the folder: the entry is skipped.',
        '- `drafts/notes.md`: No SUMMARY.md entry lists this page: it is not imported.',
        '',
        '_docsync edits this comment when these lists change and resolves it once every link is fixed and an import reads the folder without warnings._',
      ].join('\n'),
    );
  });

  it('lists warnings alone when no link is broken', () => {
    const text = render([], warnings);
    expect(text.startsWith(`${LINK_COMMENT_MARKER}\n### 2 import warnings\n`)).toBe(true);
    expect(text).not.toContain('broken link');
    expect(isLinkCommentMarkdown(text)).toBe(true);
  });

  it('counts the warnings the state did not keep, and lists at most the cap', () => {
    const many = Array.from({ length: LINK_COMMENT_MAX_WARNINGS + 3 }, (_, i) =>
      warning('SUMMARY.md', i + 1, `entry ${i + 1} is unclear.`),
    );
    const text = render([], { listed: many, count: 120 });
    expect(text).toContain('### 120 import warnings\n');
    expect(text.match(/^- `SUMMARY\.md:\d+`/gm)).toHaveLength(LINK_COMMENT_MAX_WARNINGS);
    expect(text).toContain(`…and ${120 - LINK_COMMENT_MAX_WARNINGS} more.`);
  });

  it('shows file names from git as text: no hidden link, image, HTML or marker can come from them', () => {
    const hostile = warning(
      'SUMMARY.md',
      2,
      'docs/[x](https://evil.example)![i](x.png)<img src=x onerror=alert(1)>`y`\n<!-- docsync:broken-links --> is missing.',
    );
    const text = render([], { listed: [hostile], count: 1 });
    const line = text.split('\n').find((row) => row.startsWith('- `SUMMARY.md:2`')) ?? '';
    expect(line).toBe(
      '- `SUMMARY.md:2`: docs/\\[x\\](https://evil.example)\\!\\[i\\](x.png)\\<img src=x onerror=alert(1)\\>\\`y\\` \\<\\!-- docsync:broken-links --\\> is missing.',
    );
    expect(text.split('\n').filter((row) => row.includes('docsync:broken-links'))).toHaveLength(2);
    expect(text.split('\n')[0]).toBe(LINK_COMMENT_MARKER);
  });

  it('cuts a message that is not one sentence to one line of a readable length', () => {
    const text = markdownText(`${'word '.repeat(200)}\n\nmore`);
    expect(text.length).toBe(300);
    expect(text.endsWith('…')).toBe(true);
    expect(text).not.toContain('\n');
  });
});

describe('isLinkCommentMarkdown', () => {
  it('recognises the marker on the first line only', () => {
    expect(isLinkCommentMarkdown(render([]))).toBe(true);
    expect(isLinkCommentMarkdown(`  ${LINK_COMMENT_MARKER}  \nrest`)).toBe(true);
    expect(isLinkCommentMarkdown(`> quoted\n${LINK_COMMENT_MARKER}`)).toBe(false);
    expect(isLinkCommentMarkdown('')).toBe(false);
  });
});
