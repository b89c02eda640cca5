import { describe, expect, it } from 'vitest';
import type { DocsPage, DocsTree } from '../../../src/content/docs-tree.js';
import { classifyLink, extractLinks } from '../../../src/content/markdown-links.js';

describe('extractLinks', () => {
  it.each([
    {
      name: 'finds inline links, images, autolinks and reference definitions in document order',
      lines: [
        '# Title',
        '',
        'Read [the guide](guides/install.md "Install it") and ![logo](<images/my logo.png>).',
        'Mail <docs@example.com> or visit <https://example.com/a?b=1>.',
        '[![badge](badge.svg)](https://ci.example.com)',
        'A [link with (parens)](a_(b).md) and [escaped](x\\)y.md).',
        '',
        '[ref]: https://example.com/ref "Ref"',
        '  [other]: <with space.md>',
      ],
      links: [
        'guides/install.md',
        'images/my logo.png',
        'mailto:docs@example.com',
        'https://example.com/a?b=1',
        'https://ci.example.com',
        'badge.svg',
        'a_(b).md',
        'x)y.md',
        'https://example.com/ref',
        'with space.md',
      ],
    },
    {
      name: 'skips fenced, indented and inline code',
      lines: [
        'Real [one](one.md), but not `[code](code.md)` nor ``[double `tick`](tick.md)``.',
        '',
        '```md',
        '[fenced](fenced.md)',
        '```',
        '',
        '~~~~',
        '```',
        '[still fenced](tilde.md)',
        '~~~~',
        '',
        '    [indented](indented.md)',
        '',
        'After the code, [two](two.md).',
      ],
      links: ['one.md', 'two.md'],
    },
    {
      name: 'reads links in list items indented like code, which are not code',
      lines: ['* item', '', '    [continued](continued.md)', '', 'paragraph', '    [lazy](lazy.md)'],
      links: ['continued.md', 'lazy.md'],
    },
    {
      name: 'ignores what only looks like a link',
      lines: [
        'Not a link: \\[x](escaped.md), [x] (space.md), ](no-open.md), [empty]().',
        '[^note]: footnotes are not links',
        '<div> is html, not an autolink',
      ],
      links: [],
    },
  ])('$name', ({ lines, links }) => {
    expect(extractLinks(lines.join('\n'))).toEqual(links);
  });

  it('reads CRLF documents', () => {
    // A definition cannot interrupt a paragraph (CommonMark): the blank line makes `[c]` one.
    expect(extractLinks('```\r\n[a](a.md)\r\n```\r\n[b](b.md)\r\n\r\n[c]: c.md\r\n')).toEqual([
      'b.md',
      'c.md',
    ]);
  });
});

function page(path: string, pages: DocsPage[] = []): DocsPage {
  return { path, title: path, slug: path, markdown: '', pages };
}

const tree: DocsTree = {
  pages: [
    page('README.md'),
    page('guides/README.md', [page('guides/install.md'), page('guides/my page.md')]),
  ],
  files: [{ path: 'images/logo.png', name: 'logo.png', contentType: 'image/png', data: Buffer.alloc(0) }],
};
const options = { appOrigins: ['https://app.docs.example', 'http://localhost:8787/'] };

describe('classifyLink', () => {
  it.each([
    ['install.md', 'guides/README.md', 'ok', { kind: 'page', page: 'guides/install.md' }],
    ['./install.md#step-2', 'guides/README.md', 'ok', { kind: 'page', page: 'guides/install.md' }],
    ['my%20page.md?tab=1', 'guides/install.md', 'ok', { kind: 'page', page: 'guides/my page.md' }],
    ['../images/logo.png', 'guides/install.md', 'ok', { kind: 'file', file: 'images/logo.png' }],
    ['/images/logo.png', 'guides/install.md', 'ok', { kind: 'file', file: 'images/logo.png' }],
    ['guides/', 'README.md', 'ok', { kind: 'page', page: 'guides/README.md' }],
    ['..', 'guides/install.md', 'ok', { kind: 'page', page: 'README.md' }],
    ['#anchor', 'guides/install.md', 'ok', { kind: 'page', page: 'guides/install.md' }],
    // The docs root, whose README.md is a page, however its `/` is written.
    ['/', 'guides/install.md', 'ok', { kind: 'page', page: 'README.md' }],
    ['/#top', 'README.md', 'ok', { kind: 'page', page: 'README.md' }],
    ['%2F', 'guides/install.md', 'ok', { kind: 'page', page: 'README.md' }],
    ['\\', 'README.md', 'ok', { kind: 'page', page: 'README.md' }],
    ['/guides', 'README.md', 'ok', { kind: 'page', page: 'guides/README.md' }],
    ['/gone/', 'guides/install.md', 'broken', { kind: 'file', file: 'gone' }],
    ['missing.md', 'guides/README.md', 'broken', { kind: 'page', page: 'guides/missing.md' }],
    ['Install.md', 'guides/README.md', 'broken', { kind: 'page', page: 'guides/Install.md' }],
    ['../images/gone.png', 'guides/install.md', 'broken', { kind: 'file', file: 'images/gone.png' }],
    ['api/', 'README.md', 'broken', { kind: 'file', file: 'api' }],
    ['../../etc/passwd', 'guides/install.md', 'broken', { kind: 'file', file: 'guides/../../etc/passwd' }],
    [
      'https://app.docs.example/o/1/s/2',
      'README.md',
      'in-app',
      { kind: 'url', url: 'https://app.docs.example/o/1/s/2' },
    ],
    ['http://LOCALHOST:8787/x', 'README.md', 'in-app', { kind: 'url', url: 'http://LOCALHOST:8787/x' }],
    ['//app.docs.example/x', 'README.md', 'in-app', { kind: 'url', url: 'https://app.docs.example/x' }],
    [
      'https://app.docs.example.evil.com/x',
      'README.md',
      'ok',
      { kind: 'url', url: 'https://app.docs.example.evil.com/x' },
    ],
    [
      'https://example.com/install.md',
      'README.md',
      'ok',
      { kind: 'url', url: 'https://example.com/install.md' },
    ],
    ['mailto:docs@example.com', 'README.md', 'ok', { kind: 'url', url: 'mailto:docs@example.com' }],
    ['https://', 'README.md', 'broken', { kind: 'url', url: 'https://' }],
  ])('classifies %j from %s as %s', (href, from, status, target) => {
    expect(classifyLink(href, from, tree, options)).toEqual({ status, target });
  });
});

describe('classifyLink in a tree with groups, links and placeholders', () => {
  const grouped: DocsTree = {
    pages: [
      page('README.md'),
      {
        kind: 'group',
        title: 'Guides',
        slug: 'guides',
        pages: [
          { kind: 'placeholder', title: 'Overview', slug: 'overview', pages: [page('guides/install.md')] },
          { kind: 'link', title: 'Status', slug: 'status', href: 'https://status.example.com' },
        ],
      },
    ],
    files: [],
  };

  it('finds documents under groups and placeholders, which have no file of their own', () => {
    expect(classifyLink('guides/install.md', 'README.md', grouped, options).status).toBe('ok');
    // A group or a placeholder is no file: a link to a path named like it is broken.
    expect(classifyLink('guides/', 'README.md', grouped, options).status).toBe('broken');
    expect(classifyLink('overview.md', 'README.md', grouped, options).status).toBe('broken');
  });
});
