import { describe, expect, it } from 'vitest';
import type { RevisionPage } from '../../../src/api/schemas/revision-page-schema.js';
import type { Revision } from '../../../src/api/schemas/revision-schema.js';
import { allDocuments, type DocsPage, isDocument } from '../../../src/content/docs-tree.js';
import { folderToTree } from '../../../src/content/folder-to-tree.js';
import { treeToFolder } from '../../../src/content/tree-to-folder.js';
import { ExportPathError } from '../../../src/export/export-path-error.js';
import { pagesWithoutMarkdown, planExport, treeOf } from '../../../src/export/revision-to-tree.js';
import { markdown, NAMES, seeded, title } from '../../support/random-docs.js';

function page(id: string, fields: Partial<RevisionPage> = {}): RevisionPage {
  return { id, title: `Page ${id}`, slug: id, markdown: `# ${id}\n`, ...fields };
}

function revision(pages: RevisionPage[], files: NonNullable<Revision['files']> = []): Revision {
  return { id: 'rev_1', pages, files };
}

const paths = (plan: ReturnType<typeof planExport>) => allDocuments(plan.pages).map((item) => item.path);

describe('planExport', () => {
  it('keeps the source path the service holds for each page and file', () => {
    const plan = planExport(
      revision(
        [
          page('a', { git: { path: 'README.md' } }),
          page('b', {
            git: { path: 'guides/./install.md' },
            pages: [page('c', { git: { path: 'guides/x/../deep.md' } })],
          }),
        ],
        [
          {
            id: 'f1',
            name: 'logo.png',
            contentType: 'image/png',
            downloadURL: 'https://x/f1',
            git: { path: 'img/logo.png' },
          },
        ],
      ),
    );
    expect(plan.problems).toEqual([]);
    expect(paths(plan)).toEqual(['README.md', 'guides/install.md', 'guides/deep.md']);
    expect(plan.files).toMatchObject([{ id: 'f1', path: 'img/logo.png', name: 'logo.png' }]);
  });

  it('derives paths for pages made in the service from their place on the site', () => {
    const plan = planExport(
      revision(
        [
          page('home', { slug: 'welcome' }),
          page('guides', {
            slug: 'guides',
            pages: [page('install', { slug: 'install' }), page('faq', { slug: 'faq', path: 'help/faq' })],
          }),
          page('changelog', { slug: 'changelog' }),
        ],
        [{ id: 'f1', name: 'diagram.svg', downloadURL: 'https://x/f1' }],
      ),
    );
    expect(plan.problems).toEqual([]);
    expect(paths(plan)).toEqual([
      'README.md',
      'guides/README.md',
      'guides/install.md',
      'help/faq.md',
      'changelog.md',
    ]);
    expect(plan.files[0]?.path).toBe('.gitbook/assets/diagram.svg');
  });

  it('names every page and file whose path is unsafe, and nothing else', () => {
    const plan = planExport(
      revision(
        [
          page('ok', { git: { path: 'README.md' } }),
          page('up', { title: 'Up', git: { path: '../outside.md' } }),
          page('abs', { title: 'Abs', git: { path: '/etc/passwd.md' } }),
          page('nul', { title: 'Nul', git: { path: 'a\u0000b.md' } }),
          page('dotgit', { title: 'Git', git: { path: '.git/config.md' } }),
          page('win', { title: 'Win', git: { path: 'con.md' } }),
          page('txt', { title: 'Text', git: { path: 'notes.txt' } }),
          page('twin', { title: 'Twin', git: { path: 'readme.MD' } }),
        ],
        [
          { id: 'f1', name: 'x.png', downloadURL: 'https://x/f1', git: { path: 'C:\\Windows\\x.png' } },
          { id: 'f2', name: 'page.md', downloadURL: 'https://x/f2' },
        ],
      ),
    );
    expect(plan.problems.map((problem) => problem.subject)).toEqual([
      'page "Up" (up)',
      'page "Abs" (abs)',
      'page "Nul" (nul)',
      'page "Git" (dotgit)',
      'page "Win" (win)',
      'page "Text" (txt)',
      'page "Twin" (twin)',
      'file x.png (f1)',
      'file page.md (f2)',
    ]);
    expect(plan.problems.find((problem) => problem.subject.includes('(up)'))?.reason).toContain('leaves');
    expect(plan.problems.find((problem) => problem.subject.includes('(nul)'))?.reason).toContain('\\x00');
    expect(plan.problems.find((problem) => problem.subject.includes('(twin)'))?.reason).toContain(
      'also the path of page "Page ok" (ok)',
    );
    const error = new ExportPathError('spc_1', 'rev_1', plan.problems);
    expect(error.code).toBe('EXPORT_PATH_UNSAFE');
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      /^revision rev_1 of space spc_1 was not exported, nothing was written: page "Up"/,
    );
    expect(error.message).not.toContain('\u0000');
  });

  it('collapses titles to one line; pages whose markdown is missing are read on their own first', () => {
    const missing = revision([page('a', { title: ' Two\n lines ', markdown: undefined })]);
    expect(pagesWithoutMarkdown(missing)).toEqual(['a']);
    // As the export does: the text read on its own, by page id.
    const read = new Map([['a', '# A\n']]);
    const plan = planExport(
      missing,
      {},
      { of: (page) => read.get(page.id) ?? '', blank: (text) => text.trim() === '' },
    );
    expect(plan.pages[0]).toMatchObject({ title: 'Two lines', path: 'README.md', markdown: '# A\n' });
  });

  it('reads the service’s page kinds: groups, links (target url, else href) and placeholders', () => {
    const plan = planExport(
      revision([
        page('home', { git: { path: 'README.md' } }),
        page('g', {
          type: 'group',
          title: 'Guides',
          pages: [
            page('a', { git: { path: 'guides/a.md' } }),
            page('l1', { type: 'link', title: 'Status', target: { kind: 'url', url: 'https://status.io' } }),
            page('l2', { type: 'link', title: 'Blog', href: 'https://blog.io/x' }),
            page('p', { title: 'Soon', markdown: '', pages: [page('b', { git: { path: 'b.md' } })] }),
          ],
        }),
      ]),
    );
    expect(plan.problems).toEqual([]);
    expect(plan.pages).toMatchObject([
      { path: 'README.md' },
      {
        kind: 'group',
        id: 'g',
        title: 'Guides',
        pages: [
          { path: 'guides/a.md' },
          { kind: 'link', id: 'l1', title: 'Status', href: 'https://status.io' },
          { kind: 'link', id: 'l2', href: 'https://blog.io/x' },
          { kind: 'placeholder', id: 'p', title: 'Soon', pages: [{ path: 'b.md' }] },
        ],
      },
    ]);
  });

  it('writes a page that came from a folder with no content as an empty file, not as a placeholder', () => {
    const plan = planExport(revision([page('a', { git: { path: 'README.md' }, markdown: '' })]));
    expect(plan.pages).toMatchObject([{ path: 'README.md', markdown: '' }]);
  });

  it('names links without an address or with a relative one, and groups below the top level', () => {
    const plan = planExport(
      revision([
        page('a', { git: { path: 'README.md' } }),
        page('l', { type: 'link', title: 'Nowhere', target: { kind: 'page', page: 'a' } }),
        page('b', { git: { path: 'b.md' }, pages: [page('g', { type: 'group', title: 'Deep' })] }),
        page('r', { type: 'link', title: 'Relative', href: '/docs/elsewhere' }),
      ]),
    );
    expect(plan.problems).toEqual([
      { subject: 'page "Nowhere" (l)', reason: 'is a link without an address a summary can hold' },
      { subject: 'page "Deep" (g)', reason: 'is a group below the top level' },
      {
        subject: 'page "Relative" (r)',
        reason:
          'links to /docs/elsewhere, which a summary would read as a file of the folder: give it a full address (https://…)',
      },
    ]);
  });

  it('writes the service’s first page at the configured readme, and gives new pages paths git does not hold', () => {
    const plan = planExport(
      revision([
        page('home', { git: { path: 'README.md' } }),
        page('new', { slug: 'notes' }),
        page('folder', { slug: 'guides', pages: [page('child', { slug: 'a' })] }),
      ]),
      {
        readme: 'INTRODUCTION.md',
        existing: new Set(['README.md', 'INTRODUCTION.md', 'Notes.md', 'guides/README.md']),
      },
    );
    expect(plan.problems).toEqual([]);
    // The new page's child follows it into its own folder, not into git's `guides/`.
    expect(paths(plan)).toEqual(['INTRODUCTION.md', 'notes-2.md', 'guides-2/README.md', 'guides-2/a.md']);
  });

  it('derives the readme for a first page made in the service, and a free name for a new file', () => {
    const plan = planExport(
      revision(
        [page('home', { slug: 'welcome' })],
        [{ id: 'f', name: 'logo.png', downloadURL: 'https://x/f' }],
      ),
      { readme: 'INTRODUCTION.md', existing: new Set(['.gitbook/assets/logo.png']) },
    );
    expect(paths(plan)).toEqual(['INTRODUCTION.md']);
    expect(plan.files.map((file) => file.path)).toEqual(['.gitbook/assets/logo-2.png']);
  });

  it('exports paths that differ only in case when git holds both, and refuses new ones', () => {
    const files = [
      { id: 'f1', name: 'Info.png', downloadURL: 'https://x/f1', git: { path: 'img/Info.png' } },
      { id: 'f2', name: 'info.png', downloadURL: 'https://x/f2', git: { path: 'img/info.png' } },
    ];
    const both = planExport(revision([page('a', { git: { path: 'README.md' } })], files), {
      existing: new Set(['README.md', 'img/Info.png', 'img/info.png']),
    });
    expect(both.problems).toEqual([]);
    expect(both.files.map((file) => file.path)).toEqual(['img/Info.png', 'img/info.png']);
    const one = planExport(revision([page('a', { git: { path: 'README.md' } })], files), {
      existing: new Set(['README.md', 'img/Info.png']),
    });
    expect(one.problems).toEqual([
      { subject: 'file info.png (f2)', reason: 'path img/info.png is also the path of file Info.png (f1)' },
    ]);
  });

  it('puts downloaded bytes in the tree, files in path order', () => {
    const plan = planExport(
      revision(
        [page('a')],
        [
          { id: 'f2', name: 'b.png', downloadURL: 'https://x/f2' },
          { id: 'f1', name: 'a.png', downloadURL: 'https://x/f1' },
        ],
      ),
    );
    const tree = treeOf(
      plan,
      new Map([
        ['f1', Buffer.from('A')],
        ['f2', Buffer.from('B')],
      ]),
    );
    expect(tree.files.map((file) => [file.path, file.data.toString()])).toEqual([
      ['.gitbook/assets/a.png', 'A'],
      ['.gitbook/assets/b.png', 'B'],
    ]);
  });
});

describe('pages made in the service, without a source path', () => {
  /**
   * A generated page tree as the service returns it: slugs unique among siblings, no `git`; groups
   * at the top, links to addresses, and pages without content (placeholders).
   */
  function serviceRevision(seed: number): Revision {
    const random = seeded(seed);
    let count = 0;
    const level = (depth: number, inGroup: boolean): RevisionPage[] => {
      const slugs = new Set<string>();
      return Array.from({ length: depth === 0 ? 1 + random.int(6) : random.int(4) }, (): RevisionPage => {
        count += 1;
        let slug = random
          .pick(NAMES)
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, '-');
        while (slugs.has(slug)) slug = `${slug}-${random.int(10)}`;
        slugs.add(slug);
        const pageTitle = title(random);
        const id = `pg_${count}`;
        if (depth === 0 && !inGroup && random.chance(0.2))
          return { id, type: 'group', title: pageTitle, slug, pages: level(0, true) };
        if (random.chance(0.1)) {
          const url = `https://example.com/${slug}?q=${count}`;
          return { id, type: 'link', title: pageTitle, target: { kind: 'url', url }, href: url };
        }
        return {
          id,
          type: 'document',
          title: pageTitle,
          slug,
          markdown: random.chance(0.1) ? '' : markdown(random, pageTitle, `${slug}.md`, []),
          pages: depth < 3 && random.chance(0.4) ? level(depth + 1, false) : [],
        };
      });
    };
    return { id: `rev_${seed}`, pages: level(0, false) };
  }

  /** What a writer sees: kinds, titles, nesting, markdown of documents, addresses of links. */
  const serviceOutline = (pages: readonly RevisionPage[]): unknown[] =>
    pages.map((item) => {
      const empty = (item.markdown ?? '').trim() === '';
      const kind = item.type === 'document' && empty ? 'placeholder' : item.type;
      return {
        kind,
        title: item.title,
        ...(kind === 'document' ? { markdown: item.markdown } : {}),
        ...(kind === 'link' ? { href: item.target?.url } : { pages: serviceOutline(item.pages ?? []) }),
      };
    });
  const treeOutline = (pages: readonly DocsPage[]): unknown[] =>
    pages.map((item) => ({
      kind: item.kind ?? 'document',
      title: item.title,
      ...(isDocument(item) ? { markdown: item.markdown } : {}),
      ...(item.kind === 'link' ? { href: item.href } : { pages: treeOutline(item.pages) }),
    }));

  it('import(export(revision)) gives the same kinds, titles, nesting, markdown and addresses', () => {
    let groups = 0;
    let links = 0;
    let placeholders = 0;
    for (let seed = 1; seed <= 300; seed += 1) {
      const revision = serviceRevision(seed);
      const plan = planExport(revision);
      expect(plan.problems, `seed ${seed}`).toEqual([]);
      const back = folderToTree(treeToFolder(treeOf(plan, new Map())));
      expect(treeOutline(back.pages), `seed ${seed}`).toEqual(serviceOutline(revision.pages ?? []));
      const kinds = JSON.stringify(serviceOutline(revision.pages ?? []));
      if (kinds.includes('"group"')) groups += 1;
      if (kinds.includes('"link"')) links += 1;
      if (kinds.includes('"placeholder"')) placeholders += 1;
    }
    // Every kind is exercised often.
    expect(Math.min(groups, links, placeholders)).toBeGreaterThan(30);
  });
});
