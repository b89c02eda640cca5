import { describe, expect, it } from 'vitest';
import { ContentError } from '../../../src/content/content-error.js';
import type { DocsFile, DocsPage, DocsTree } from '../../../src/content/docs-tree.js';
import { folderToTree } from '../../../src/content/folder-to-tree.js';
import { readOutline } from '../../../src/content/read-outline.js';
import { treeToFolder } from '../../../src/content/tree-to-folder.js';
import { thrownError } from '../../support/thrown-error.js';

function page(path: string, title: string, markdown: string, pages: DocsPage[] = []): DocsPage {
  return { path, title, slug: '', markdown, pages };
}

function file(path: string, data: string): DocsFile {
  return { path, name: path.split('/').at(-1) ?? path, contentType: 'image/png', data: Buffer.from(data) };
}

function text(folder: Map<string, Buffer>): Record<string, string> {
  return Object.fromEntries([...folder].map(([path, data]) => [path, data.toString('utf8')]));
}

const refusal = (tree: DocsTree) => thrownError(ContentError, () => treeToFolder(tree));

describe('treeToFolder', () => {
  it('writes pages and files at their paths, and no SUMMARY.md when the files already say it all', () => {
    const tree: DocsTree = {
      pages: [
        page('README.md', 'Welcome', '# Welcome\n'),
        page('faq.md', 'faq', 'Questions.\n'),
        page('guides/README.md', 'Guides', '# Guides\n', [
          page('guides/install.md', 'Install', '# Install\n'),
        ]),
      ],
      files: [file('images/logo.png', 'png')],
    };
    expect(text(treeToFolder(tree))).toEqual({
      'README.md': '# Welcome\n',
      'faq.md': 'Questions.\n',
      'guides/README.md': '# Guides\n',
      'guides/install.md': '# Install\n',
      'images/logo.png': 'png',
    });
  });

  it('writes a SUMMARY.md listing every page when order, nesting or a title differ from the files', () => {
    const tree: DocsTree = {
      pages: [
        page('README.md', 'Welcome', '# Welcome\n', [page('my (draft) notes.md', 'Notes', '# Notes\n')]),
        page('z.md', 'Setup [beta] \\ C#', '# Z\n'),
        page('a.md', 'a', 'no heading\n'),
      ],
      files: [],
    };
    expect(text(treeToFolder(tree))['SUMMARY.md']).toBe(
      [
        '# Summary',
        '',
        '* [Welcome](README.md)',
        '  * [Notes](my%20%28draft%29%20notes.md)',
        '* [Setup \\[beta\\] \\\\ C#](z.md)',
        '* [a](a.md)',
        '',
      ].join('\n'),
    );
  });

  it('writes links in a summary kept in a subfolder relative to it', () => {
    const tree: DocsTree = {
      pages: [page('b.md', 'B', ''), page('guides/a.md', 'A', '')],
      files: [],
    };
    const folder = text(treeToFolder(tree, { summary: 'meta/TOC.md' }));
    expect(folder['meta/TOC.md']).toBe('# Summary\n\n* [B](../b.md)\n* [A](../guides/a.md)\n');
    expect(folder['SUMMARY.md']).toBeUndefined();
  });

  it('collapses whitespace in titles and writes an empty title as the page’s own', () => {
    const tree: DocsTree = {
      pages: [page('b.md', '  Two\n  lines ', '# B\n'), page('a.md', ' ', '# From the heading\n')],
      files: [],
    };
    const back = folderToTree(treeToFolder(tree));
    expect(back.pages.map((p) => p.title)).toEqual(['Two lines', 'From the heading']);
  });

  it('rewrites a summary that is not in normal form and keeps the tree it gave', () => {
    const folder = new Map(
      Object.entries({
        'README.md': '# Home\n',
        'b.md': '# B\n',
        'a.md': '# A\n',
        'SUMMARY.md':
          '# Table of contents\n\n## Start\n\n- [Home](./README.md)\n- [Bee](b.md#top)\n\n## More\n\n+ [A](a.md)\n',
      }).map(([path, content]) => [path, Buffer.from(content)]),
    );
    const tree = folderToTree(folder);
    const rewritten = treeToFolder(tree);
    expect(rewritten.get('SUMMARY.md')?.toString()).toBe(
      '# Summary\n\n## Start\n\n* [Home](README.md)\n* [Bee](b.md)\n\n## More\n\n* [A](a.md)\n',
    );
    expect(folderToTree(rewritten)).toEqual(tree);
  });

  it('writes groups as headings, links and placeholders as list items, and a `---` before top-level pages after a group', () => {
    const tree: DocsTree = {
      pages: [
        page('README.md', 'Welcome', '# Welcome\n'),
        {
          kind: 'group',
          title: 'Guides #',
          slug: '',
          pages: [
            page('a.md', 'A [x]', '# A\n', [{ kind: 'placeholder', title: 'Soon', slug: '', pages: [] }]),
            { kind: 'link', title: 'Status', slug: '', href: 'https://status.example.com/a b' },
          ],
        },
        page('z.md', 'Z', '# Z\n'),
      ],
      files: [],
    };
    const folder = treeToFolder(tree);
    expect(folder.get('SUMMARY.md')?.toString()).toBe(
      [
        '# Summary',
        '',
        '* [Welcome](README.md)',
        '',
        '## Guides \\#',
        '',
        '* [A \\[x\\]](a.md)',
        '  * Soon',
        '* [Status](<https://status.example.com/a b>)',
        '',
        '---',
        '',
        '* [Z](z.md)',
        '',
      ].join('\n'),
    );
    expect([...folder.keys()]).toEqual(['README.md', 'SUMMARY.md', 'a.md', 'z.md']);
    const back = folderToTree(folder);
    expect(back.pages.map((item) => [item.kind ?? 'document', item.title])).toEqual([
      ['document', 'Welcome'],
      ['group', 'Guides #'],
      ['document', 'Z'],
    ]);
    expect(back.pages[1]).toMatchObject({
      pages: [
        { path: 'a.md', title: 'A [x]', pages: [{ kind: 'placeholder', title: 'Soon' }] },
        { kind: 'link', title: 'Status', href: 'https://status.example.com/a b' },
      ],
    });
  });

  it('over git’s folder, keeps a hand-written summary byte for byte when the structure is the same', () => {
    const summary =
      '# Contents\r\n\r\n## Start\r\n\r\n- [Home](/README.md)\r\n    - [Bee](</b.md> "tip")\r\n- Later\r\n';
    const folder = new Map(
      Object.entries({ 'README.md': '# Home\n', 'b.md': '# B\n', 'SUMMARY.md': summary }).map(
        ([path, content]) => [path, Buffer.from(content)],
      ),
    );
    const current = {
      summary: folder.get('SUMMARY.md'),
      outline: readOutline(folder.keys(), summary).pages,
      staying: [],
    };
    const tree = folderToTree(folder);
    expect(treeToFolder(tree, { current }).get('SUMMARY.md')?.toString()).toBe(summary);
    const group = tree.pages[0];
    if (group?.kind !== 'group') throw new Error('expected a group');
    group.pages.push({ kind: 'placeholder', title: 'Even later', slug: '', pages: [] });
    expect(treeToFolder(tree, { current }).get('SUMMARY.md')?.toString()).toBe(`${summary}- Even later\r\n`);
  });

  it.each<[string, DocsTree, string]>([
    [
      'README.md anywhere but first',
      { pages: [page('a.md', 'A', ''), page('README.md', 'Home', '')], files: [] },
      'page README.md can only be the first top-level page: move it back to the top of the space',
    ],
    [
      'README.md after a link',
      {
        pages: [
          { kind: 'link', title: 'Out', slug: '', href: 'https://x.io' },
          page('README.md', 'Home', ''),
        ],
        files: [],
      },
      'page README.md can only be the first top-level page: move it back to the top of the space',
    ],
    [
      'a group below the top level',
      {
        pages: [page('a.md', 'A', '', [{ kind: 'group', title: 'Deep', slug: '', pages: [] }])],
        files: [],
      },
      'group "Deep" can only be at the top level',
    ],
    [
      'README.md nested',
      { pages: [page('a.md', 'A', '', [page('README.md', 'Home', '')])], files: [] },
      'page README.md can only be the first top-level page: move it back to the top of the space',
    ],
    [
      'a page that is not markdown',
      { pages: [page('a.txt', 'A', '')], files: [] },
      'page a.txt must be a .md file',
    ],
    [
      'a markdown file',
      { pages: [], files: [file('notes.md', 'x')] },
      'file notes.md would read back as a page',
    ],
    [
      'two pages at one path',
      { pages: [page('a.md', 'A', ''), page('./a.md', 'A again', '')], files: [] },
      'page a.md clashes with another file of the folder',
    ],
    [
      'a page at the summary’s path',
      { pages: [page('SUMMARY.md', 'Summary', '')], files: [] },
      'page SUMMARY.md clashes with another file of the folder',
    ],
    [
      'a path that is a file and a folder',
      { pages: [page('guides/a.md', 'A', '')], files: [file('guides', 'x')] },
      'guides is both a file and a folder',
    ],
  ])('refuses %s', (_, tree, message) => {
    const error = refusal(tree);
    expect(error.code).toBe('CONTENT_INVALID');
    expect(error.message).toBe(message);
  });

  it('refuses an unsafe path', () => {
    expect(refusal({ pages: [page('../up.md', 'Up', '')], files: [] }).code).toBe('PATH_UNSAFE');
  });
});
