import { describe, expect, it } from 'vitest';
import { ContentError } from '../../../src/content/content-error.js';
import type { DocsPage } from '../../../src/content/docs-tree.js';
import { type FolderLayout, folderToTree, readFolder } from '../../../src/content/folder-to-tree.js';
import { thrownError } from '../../support/thrown-error.js';

/** A page as `[path or kind:title, title, children]`: documents by path, the other kinds by title. */
type Outline = [name: string, title: string, children?: Outline[]];

function folder(files: Record<string, string | Buffer>): Map<string, Buffer> {
  return new Map(Object.entries(files).map(([path, content]) => [path, Buffer.from(content)]));
}

function outline(pages: readonly DocsPage[]): Outline[] {
  return pages.map((page): Outline => {
    const name =
      page.kind === undefined || page.kind === 'document'
        ? page.path
        : page.kind === 'link'
          ? `link:${page.href}`
          : `${page.kind}:${page.title}`;
    const children = page.kind === 'link' ? [] : page.pages;
    return children.length === 0 ? [name, page.title] : [name, page.title, outline(children)];
  });
}

const refusal = (files: Record<string, string | Buffer>, options?: FolderLayout) =>
  thrownError(ContentError, () => folderToTree(folder(files), options));

describe('folderToTree without a SUMMARY.md', () => {
  const tree = folderToTree(
    folder({
      'guides/install.md': '# Install docsync\n\nRun it.\n',
      'faq.md': 'No heading, so the file name is the title.\n',
      'README.md': '# Welcome\n',
      'guides/advanced/tuning.md': 'Intro\n\n#   Tuning   the  worker  #\n',
      'guides/README.md': '# Guides\n',
      'api/reference.md': '```bash\n# not a title\n```\n',
      '.gitbook/assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      'files/Manual.PDF': 'pdf',
      'data.xyz': 'x',
    }),
  );

  it('puts README.md first, then pages by path, under the README of the nearest folder above', () => {
    expect(outline(tree.pages)).toEqual([
      ['README.md', 'Welcome'],
      ['api/reference.md', 'reference'],
      ['faq.md', 'faq'],
      [
        'guides/README.md',
        'Guides',
        [
          ['guides/advanced/tuning.md', 'Tuning the worker'],
          ['guides/install.md', 'Install docsync'],
        ],
      ],
    ]);
  });

  it('titles a page by its first heading behind a byte order mark, keeping the markdown as written', () => {
    const tree = folderToTree(folder({ 'README.md': '# Home\n', 'setup.md': '\uFEFF# Set up\n\nText.\n' }));
    expect(outline(tree.pages)).toEqual([
      ['README.md', 'Home'],
      ['setup.md', 'Set up'],
    ]);
    const setup = tree.pages[1];
    expect(setup !== undefined && 'markdown' in setup && setup.markdown.startsWith('\uFEFF# Set up')).toBe(
      true,
    );
  });

  it('keeps the markdown as written', () => {
    expect(tree.pages[0]).toMatchObject({ markdown: '# Welcome\n' });
  });

  it('derives slugs from file names, and a folder README’s from its folder', () => {
    expect(tree.pages.map((page) => page.slug)).toEqual(['readme', 'reference', 'faq', 'guides']);
    const odd = folderToTree(folder({ 'Getting Started!.md': '', 'Über uns/README.md': '', '!!!.md': '' }));
    expect(odd.pages.map((page) => page.slug)).toEqual(['page', 'getting-started', 'über-uns']);
  });

  it('makes every other file a DocsFile in path order, typed by its extension', () => {
    expect(tree.files.map(({ path, name, contentType }) => ({ path, name, contentType }))).toEqual([
      { path: '.gitbook/assets/logo.png', name: 'logo.png', contentType: 'image/png' },
      { path: 'data.xyz', name: 'data.xyz', contentType: 'application/octet-stream' },
      { path: 'files/Manual.PDF', name: 'Manual.PDF', contentType: 'application/pdf' },
    ]);
    expect(tree.files[0]?.data).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('warns of nothing in a folder without problems', () => {
    expect(readFolder(folder({ 'README.md': '# Hi\n', 'a.md': '' })).warnings).toEqual([]);
  });
});

describe('folderToTree with a SUMMARY.md', () => {
  const pages = {
    'README.md': '# Welcome\n',
    'guides/README.md': '# Guides\n',
    'guides/install.md': '# Install\n',
    'guides/upgrade.md': '# Upgrade\n',
    'guides/later.md': '# Later\n',
    'my notes.md': '# Notes\n',
    'zz-unlisted.md': '# Unlisted\n',
  };
  const summary = [
    '# Summary',
    '',
    '* [Introduction](README.md)',
    '',
    '## Getting started',
    '',
    '- [Notes](<my notes.md>)',
    '* [All the guides](guides/README.md#top "tooltip")',
    '    * [Upgrading](./guides/upgrade.md)',
    '\t* [Installing \\[beta\\]](guides/install.md)',
    '      1. [](guides/../my%20notes.md)',
  ].join('\n');

  /** The outline the list gives, with the pages it leaves out appended under the guides and at the end. */
  const listed = (guides: Outline[] = [], end: Outline[] = []): Outline[] => [
    ['README.md', 'Introduction'],
    [
      'group:Getting started',
      'Getting started',
      [
        ['my notes.md', 'Notes'],
        [
          'guides/README.md',
          'All the guides',
          [['guides/upgrade.md', 'Upgrading'], ['guides/install.md', 'Installing [beta]'], ...guides],
        ],
      ],
    ],
    ...end,
  ];

  it('orders, nests, groups and titles pages as its list does, and leaves out the pages it does not list', () => {
    const { tree, warnings } = readFolder(folder({ ...pages, 'SUMMARY.md': summary }));
    expect(outline(tree.pages)).toEqual(listed());
    expect(tree.pages[1]).toMatchObject({ kind: 'group', slug: 'getting-started' });
    expect(warnings.map(({ code, file, line }) => ({ code, file, line }))).toEqual([
      { code: 'SUMMARY_DUPLICATE', file: 'SUMMARY.md', line: 11 },
      { code: 'PAGE_UNLISTED', file: 'guides/later.md', line: undefined },
      { code: 'PAGE_UNLISTED', file: 'zz-unlisted.md', line: undefined },
    ]);
    // Markdown that is not a page is not a file of the tree either.
    expect(tree.files).toEqual([]);
  });

  it('appends the pages it leaves out under the nearest folder README with unlisted: append', () => {
    const { tree, warnings } = readFolder(folder({ ...pages, 'SUMMARY.md': summary }), {
      unlisted: 'append',
    });
    expect(outline(tree.pages)).toEqual(
      listed([['guides/later.md', 'Later']], [['zz-unlisted.md', 'Unlisted']]),
    );
    expect(warnings.map((warning) => warning.code)).toEqual(['SUMMARY_DUPLICATE']);
  });

  it('puts an unlisted README.md first and takes an empty link text from the heading', () => {
    const tree = folderToTree(
      folder({ ...pages, 'SUMMARY.md': '* [](guides/install.md)\n* [Up](guides/upgrade.md)\n' }),
      { unlisted: 'append' },
    );
    expect(outline(tree.pages).map(([path, title]) => [path, title])).toEqual([
      ['README.md', 'Welcome'],
      ['guides/install.md', 'Install'],
      ['guides/upgrade.md', 'Up'],
      ['guides/README.md', 'Guides'],
      ['my notes.md', 'Notes'],
      ['zz-unlisted.md', 'Unlisted'],
    ]);
  });

  it('is not itself a page or a file', () => {
    const tree = folderToTree(folder({ 'README.md': '# Hi\n', 'SUMMARY.md': '# Summary\n' }));
    expect(outline(tree.pages)).toEqual([['README.md', 'Hi']]);
    expect(tree.files).toEqual([]);
  });

  it('makes groups, links and placeholders pages of their kinds, titled and slugged by their text', () => {
    const tree = folderToTree(
      folder({
        ...pages,
        'SUMMARY.md': [
          '* [Welcome](README.md)',
          '* Overview',
          '  * [Install](guides/install.md)',
          '## Elsewhere',
          '* [Status page](https://status.example.com)',
          '* [](mailto:docs@example.com)',
        ].join('\n'),
      }),
    );
    expect(tree.pages.slice(1)).toEqual([
      {
        kind: 'placeholder',
        title: 'Overview',
        slug: 'overview',
        pages: [expect.objectContaining({ path: 'guides/install.md', title: 'Install', slug: 'install' })],
      },
      {
        kind: 'group',
        title: 'Elsewhere',
        slug: 'elsewhere',
        pages: [
          { kind: 'link', title: 'Status page', slug: 'status-page', href: 'https://status.example.com' },
          {
            kind: 'link',
            title: 'mailto:docs@example.com',
            slug: 'mailto-docs-example-com',
            href: 'mailto:docs@example.com',
          },
        ],
      },
    ]);
  });

  it.each([
    ['* [Gone](guides/missing.md)', 'SUMMARY_MISSING_FILE', 'guides/missing.md is not in the docs folder'],
    ['* [Logo](logo.png)', 'SUMMARY_MISSING_FILE', 'logo.png is not a markdown page'],
    ['* [Up](../outside.md)', 'SUMMARY_MISSING_FILE', 'link ../outside.md leaves the docs folder'],
    ['* [A](guides/install.md)\n* [Home](README.md)', 'SUMMARY_ENTRY_UNCLEAR', 'README.md is the first page'],
    [
      '* [A](guides/README.md)\n  * [Home](README.md)',
      'SUMMARY_ENTRY_UNCLEAR',
      'README.md is the first page',
    ],
  ])('reads past the entry %j with %s', (list, code, message) => {
    const { tree, warnings } = readFolder(
      folder({ ...pages, 'logo.png': 'png', 'SUMMARY.md': `# Summary\n\n${list}\n` }),
    );
    expect(warnings[0]).toMatchObject({ code, file: 'SUMMARY.md', line: list.split('\n').length + 2 });
    expect(warnings[0]?.message).toContain(message);
    // The folder is read all the same: README.md first.
    expect(tree.pages[0]).toMatchObject({ path: 'README.md' });
  });

  it('reads another readme name and a summary in a subfolder, its links relative to it', () => {
    const tree = folderToTree(
      folder({
        'index.md': '# Home\n',
        'guides/index.md': '# Guides\n',
        'guides/a.md': '# A\n',
        'meta/TOC.md': '* [Guide A](../guides/a.md)\n',
        'README.md': '# Just a page here\n',
      }),
      { readme: 'index.md', summary: 'meta/TOC.md', unlisted: 'append' },
    );
    expect(outline(tree.pages)).toEqual([
      ['index.md', 'Home'],
      ['guides/a.md', 'Guide A'],
      ['README.md', 'Just a page here'],
      ['guides/index.md', 'Guides'],
    ]);
  });

  it('reads unlisted markdown that is not UTF-8 past, since it is no page', () => {
    const { tree, warnings } = readFolder(
      folder({ 'README.md': '# Hi\n', 'SUMMARY.md': '* [Hi](README.md)\n', 'old.md': Buffer.from([0xff]) }),
    );
    expect(outline(tree.pages)).toEqual([['README.md', 'Hi']]);
    expect(warnings.map((warning) => [warning.code, warning.file])).toEqual([['PAGE_UNLISTED', 'old.md']]);
  });
});

describe('folderToTree with paths that differ only in case', () => {
  it('keeps both, with a PATH_CASE_CLASH warning per pair', () => {
    const { tree, warnings } = readFolder(
      folder({ 'README.md': '# Hi\n', 'Info.png': 'a', 'info.png': 'b', 'INFO.png': 'c' }),
    );
    expect(tree.files.map((file) => file.path)).toEqual(['INFO.png', 'Info.png', 'info.png']);
    expect(warnings.map(({ code, file }) => [code, file])).toEqual([
      ['PATH_CASE_CLASH', 'INFO.png'],
      ['PATH_CASE_CLASH', 'INFO.png'],
      ['PATH_CASE_CLASH', 'Info.png'],
    ]);
    expect(warnings[0]?.message).toBe(
      'INFO.png and Info.png differ only in letter case: both are kept, but a checkout on macOS or Windows holds only one of them; rename one',
    );
  });
});

describe('folderToTree refuses', () => {
  it('a page that is not UTF-8', () => {
    const error = refusal({ 'README.md': Buffer.from([0x23, 0x20, 0xff, 0xfe]) });
    expect(error.message).toBe('README.md is not valid UTF-8 text');
  });

  it('a summary that is not UTF-8', () => {
    const error = refusal({ 'README.md': '# Hi\n', 'SUMMARY.md': Buffer.from([0x2a, 0x20, 0xff]) });
    expect(error).toMatchObject({ code: 'CONTENT_INVALID', message: 'SUMMARY.md is not valid UTF-8 text' });
  });

  it('two paths that normalise alike', () => {
    expect(refusal({ 'guides/a.md': '1', 'guides\\a.md': '2' }).message).toBe(
      'the folder holds guides/a.md twice',
    );
  });

  it('unsafe paths', () => {
    expect(refusal({ '../escape.md': 'x' }).code).toBe('PATH_UNSAFE');
  });

  it('a summary link holding a control character', () => {
    const error = refusal({ 'README.md': '# Hi\n', 'SUMMARY.md': '# Summary\n\n* [Evil](a%00b.md)\n' });
    expect(error).toMatchObject({
      code: 'PATH_UNSAFE',
      message: 'SUMMARY.md:3: the link "a%00b.md" holds a control character',
    });
  });

  it('a readme option that is not a markdown file name', () => {
    expect(refusal({ 'README.md': '' }, { readme: 'docs/index.md' }).message).toBe(
      'readme docs/index.md must be a markdown file name',
    );
  });
});
