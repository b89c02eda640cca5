import { describe, expect, it } from 'vitest';
import { ContentError } from '../../../src/content/content-error.js';
import type { DocsPage } from '../../../src/content/docs-tree.js';
import { type FolderLayout, folderToTree } from '../../../src/content/folder-to-tree.js';

type Outline = [path: string, title: string, children?: Outline[]];

function folder(files: Record<string, string | Buffer>): Map<string, Buffer> {
  return new Map(Object.entries(files).map(([path, content]) => [path, Buffer.from(content)]));
}

function outline(pages: readonly DocsPage[]): Outline[] {
  return pages.map((page) =>
    page.pages.length === 0 ? [page.path, page.title] : [page.path, page.title, outline(page.pages)],
  );
}

function refusal(files: Record<string, string | Buffer>, options?: FolderLayout): ContentError {
  try {
    folderToTree(folder(files), options);
  } catch (error) {
    if (error instanceof ContentError) return error;
    throw error;
  }
  throw new Error('expected the folder to be refused');
}

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

  it('keeps the markdown as written', () => {
    expect(tree.pages[0]?.markdown).toBe('# Welcome\n');
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

  it('orders, nests and titles pages as its list does, and appends the pages it leaves out', () => {
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
    const refused = refusal({ ...pages, 'SUMMARY.md': summary });
    expect(refused.message).toBe('SUMMARY.md:11: my notes.md is listed twice');

    const tree = folderToTree(
      folder({ ...pages, 'SUMMARY.md': summary.split('\n').slice(0, 10).join('\n') }),
    );
    expect(outline(tree.pages)).toEqual([
      ['README.md', 'Introduction'],
      ['my notes.md', 'Notes'],
      [
        'guides/README.md',
        'All the guides',
        [
          ['guides/upgrade.md', 'Upgrading'],
          ['guides/install.md', 'Installing [beta]'],
          ['guides/later.md', 'Later'],
        ],
      ],
      ['zz-unlisted.md', 'Unlisted'],
    ]);
  });

  it('puts an unlisted README.md first and takes an empty link text from the heading', () => {
    const tree = folderToTree(
      folder({ ...pages, 'SUMMARY.md': '* [](guides/install.md)\n* [Up](guides/upgrade.md)\n' }),
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

  it.each([
    [
      '* [Gone](guides/missing.md)',
      'CONTENT_INVALID',
      'SUMMARY.md:3: guides/missing.md is not in the folder',
    ],
    ['* [Logo](logo.png)', 'CONTENT_INVALID', 'SUMMARY.md:3: logo.png is not a markdown page'],
    [
      '* Just some text',
      'CONTENT_INVALID',
      'SUMMARY.md:3: expected one link to a page, like * [Title](page.md)',
    ],
    [
      '* [Site](https://example.com)',
      'CONTENT_INVALID',
      'SUMMARY.md:3: links to https://example.com, not to a page',
    ],
    ['* [Up](../outside.md)', 'PATH_UNSAFE', 'SUMMARY.md:3: link ../outside.md leaves the docs folder'],
    [
      '* [A](guides/install.md)\n* [Home](README.md)',
      'CONTENT_INVALID',
      'SUMMARY.md:4: README.md is the first page and can only be the first item',
    ],
    [
      '* [A](guides/README.md)\n  * [Home](README.md)',
      'CONTENT_INVALID',
      'SUMMARY.md:4: README.md is the first page and can only be the first item',
    ],
  ])('refuses the entry %j', (list, code, message) => {
    const error = refusal({ ...pages, 'logo.png': 'png', 'SUMMARY.md': `# Summary\n\n${list}\n` });
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
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
      { readme: 'index.md', summary: 'meta/TOC.md' },
    );
    expect(outline(tree.pages)).toEqual([
      ['index.md', 'Home'],
      ['guides/a.md', 'Guide A'],
      ['README.md', 'Just a page here'],
      ['guides/index.md', 'Guides'],
    ]);
  });
});

describe('folderToTree refuses', () => {
  it('markdown that is not UTF-8', () => {
    const error = refusal({ 'README.md': Buffer.from([0x23, 0x20, 0xff, 0xfe]) });
    expect(error.message).toBe('README.md is not valid UTF-8 text');
  });

  it('two paths that normalise alike', () => {
    expect(refusal({ 'guides/a.md': '1', 'guides\\a.md': '2' }).message).toBe(
      'the folder holds guides/a.md twice',
    );
  });

  it('unsafe paths', () => {
    expect(refusal({ '../escape.md': 'x' }).code).toBe('PATH_UNSAFE');
  });
});
