import { describe, expect, it } from 'vitest';
import { buildPageTree } from '../../../src/emulator/folder/build-page-tree.js';
import type { TreePage } from '../../../src/emulator/folder/content-tree.js';
import { ImportRefusedError } from '../../../src/emulator/folder/import-refused-error.js';

const LAYOUT = { readme: 'README.md', summary: 'SUMMARY.md' };
const PAGES = {
  'README.md': '# Welcome\n',
  'a.md': '# A\n',
  'b.md': '# B\n',
  'my notes.md': '# Notes\n',
  'café.md': '# Café\n',
  'guides/README.md': '# Guides\n',
  'guides/install.md': '# Install\n',
  'reference/api.md': '# API\n',
};

function tree(folder: Record<string, string | Buffer>) {
  const files = new Map(Object.entries(folder).map(([path, text]) => [path, Buffer.from(text)]));
  return buildPageTree(files, LAYOUT);
}

/** Documents by path, other pages as `kind:title`, with their children. */
const outline = (pages: readonly TreePage[]): unknown[] =>
  pages.map((p) => {
    const name = p.kind === undefined || p.kind === 'document' ? p.path : `${p.kind}:${p.title}`;
    return p.kind !== 'link' && p.pages.length > 0 ? [name, outline(p.pages)] : name;
  });

const withSummary = (summary: string) => tree({ ...PAGES, 'SUMMARY.md': summary });

describe('buildPageTree', () => {
  it('reads the example of docs/folder-format.md: placeholder, group, link, a missing page warned', () => {
    const { tree: read, warnings } = withSummary(
      [
        '# Summary',
        '',
        '* [Welcome](README.md)',
        '* Overview',
        '  * [Install](guides/install.md)',
        '',
        '## Reference',
        '',
        '* [API](reference/api.md)',
        '* [Status page](https://status.example.com)',
        '* [Old API](old.md)',
      ].join('\n'),
    );
    expect(outline(read.pages)).toEqual([
      'README.md',
      ['placeholder:Overview', ['guides/install.md']],
      ['group:Reference', ['reference/api.md', 'link:Status page']],
    ]);
    expect(warnings).toContainEqual({ code: 'SUMMARY_MISSING_FILE', file: 'SUMMARY.md', line: 11 });
    // Pages the summary does not list are not pages.
    expect(warnings).toContainEqual({ code: 'PAGE_UNLISTED', file: 'a.md' });
  });

  it('decodes percent-encoded links, takes <pointy> ones with their escapes, and names outside ASCII', () => {
    const { tree: read } = withSummary('* [N](my%20notes.md)\n* [C](caf%C3%A9.md)\n* [A](<a\\.md>)\n');
    expect(outline(read.pages)).toEqual(['README.md', 'my notes.md', 'café.md', 'a.md']);
    expect(read.pages.map((page) => page.slug)).toEqual(['readme', 'my-notes', 'café', 'a']);
  });

  it('reads past what it cannot place, the entries under it taking its place', () => {
    const { tree: read } = withSummary(
      [
        '* [A](a.md)',
        '* [Again](a.md)', // a duplicate
        '  * [B](b.md)',
        '* [Home](README.md)', // the readme, not first
        '* [Up](../outside.md)',
        '  * [N](my%20notes.md)',
        '* [Status](https://status.example.com)',
        '  * [API](reference/api.md)',
        '* [Guides](guides/)',
      ].join('\n'),
    );
    expect(outline(read.pages)).toEqual([
      'README.md',
      'a.md',
      'b.md',
      'my notes.md',
      'link:Status',
      'reference/api.md',
      'guides/README.md',
    ]);
  });

  it('takes the first entry naming the readme as the first page, in its group when it is in one', () => {
    const { tree: read } = withSummary('## Start\n* [Home](README.md)\n  * [A](a.md)\n* [B](b.md)\n');
    expect(outline(read.pages)).toEqual([['group:Start', [['README.md', ['a.md']], 'b.md']]]);
    expect(read.pages[0]?.kind === 'group' && read.pages[0].pages[0]?.title).toBe('Home');
  });

  it('skips HTML comments, also indented under an entry, and fenced code', () => {
    const { tree: read } = withSummary(
      '* [A](a.md) <!-- beta -->\n    <!--\n  * [B](b.md)\n  -->\n```\n* [N](my%20notes.md)\n```\n',
    );
    expect(outline(read.pages)).toEqual(['README.md', 'a.md']);
  });

  it('reads a summary and a page that start with a byte order mark', () => {
    const { tree: read } = tree({
      ...PAGES,
      'SUMMARY.md': '\uFEFF* [](README.md)\n* [B](b.md)\n',
      'README.md': '\uFEFF# Hi\n',
    });
    expect(outline(read.pages)).toEqual(['README.md', 'b.md']);
    expect(read.pages[0]?.title).toBe('Hi');
    // The markdown is kept as written, mark included: an export writes the same bytes back.
    expect(read.pages[0]).toMatchObject({ path: 'README.md', markdown: '\uFEFF# Hi\n' });
  });

  it('without a summary, puts the readme first and each page under its nearest folder readme', () => {
    const { tree: read } = tree({ ...PAGES, 'guides/deep/x.md': '', 'logo.png': 'png' });
    expect(outline(read.pages)).toEqual([
      'README.md',
      'a.md',
      'b.md',
      'café.md',
      ['guides/README.md', ['guides/deep/x.md', 'guides/install.md']],
      'my notes.md',
      'reference/api.md',
    ]);
    expect(read.pages[4]).toMatchObject({ title: 'Guides', pages: [{ title: 'x' }, { title: 'Install' }] });
    expect(read.files.map((file) => [file.path, file.contentType])).toEqual([['logo.png', 'image/png']]);
  });

  it('refuses a page that is not UTF-8, and a summary link holding a control character', () => {
    const thrown = (run: () => unknown): unknown => {
      try {
        run();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const notUtf8 = thrown(() =>
      buildPageTree(new Map([['README.md', Buffer.from([0x23, 0x20, 0xff])]]), LAYOUT),
    );
    expect(notUtf8).toBeInstanceOf(ImportRefusedError);
    expect(notUtf8).toMatchObject({ code: 'CONTENT_INVALID', path: 'README.md' });
    const control = thrown(() => withSummary('# Summary\n\n* [Evil](a%00b.md)\n'));
    expect(control).toMatchObject({
      code: 'PATH_UNSAFE',
      message: 'SUMMARY.md:3: the link "a%00b.md" holds a control character; remove it',
    });
  });
});
