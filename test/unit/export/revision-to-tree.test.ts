import { describe, expect, it } from 'vitest';
import type { RevisionPage } from '../../../src/api/schemas/revision-page-schema.js';
import type { Revision } from '../../../src/api/schemas/revision-schema.js';
import { folderToTree } from '../../../src/content/folder-to-tree.js';
import { treeToFolder } from '../../../src/content/tree-to-folder.js';
import { ExportPathError } from '../../../src/export/export-path-error.js';
import { planExport, treeOf } from '../../../src/export/revision-to-tree.js';
import { markdown, NAMES, seeded, title } from '../../support/random-docs.js';

function page(id: string, fields: Partial<RevisionPage> = {}): RevisionPage {
  return { id, title: `Page ${id}`, slug: id, markdown: `# ${id}\n`, ...fields };
}

function revision(pages: RevisionPage[], files: NonNullable<Revision['files']> = []): Revision {
  return { id: 'rev_1', pages, files };
}

const paths = (plan: ReturnType<typeof planExport>) => {
  const list: string[] = [];
  const visit = (pages: typeof plan.pages) => {
    for (const item of pages) {
      list.push(item.path);
      visit(item.pages);
    }
  };
  visit(plan.pages);
  return list;
};

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

  it('collapses titles to one line and lists pages whose markdown must be read on their own', () => {
    const plan = planExport(revision([page('a', { title: ' Two\n lines ', markdown: undefined })]));
    expect(plan.pages[0]?.title).toBe('Two lines');
    expect(plan.missingMarkdown).toEqual(['a']);
    const tree = treeOf(plan, new Map());
    expect(tree.pages[0]?.markdown).toBe('');
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
  /** A generated page tree as the service returns it: slugs unique among siblings, no `git`. */
  function serviceRevision(seed: number): Revision {
    const random = seeded(seed);
    let count = 0;
    const level = (depth: number): RevisionPage[] => {
      const slugs = new Set<string>();
      return Array.from({ length: depth === 0 ? 1 + random.int(6) : random.int(4) }, () => {
        count += 1;
        let slug = random
          .pick(NAMES)
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, '-');
        while (slugs.has(slug)) slug = `${slug}-${random.int(10)}`;
        slugs.add(slug);
        const pageTitle = title(random);
        return {
          id: `pg_${count}`,
          title: pageTitle,
          slug,
          markdown: markdown(random, pageTitle, `${slug}.md`, []),
          pages: depth < 3 && random.chance(0.4) ? level(depth + 1) : [],
        };
      });
    };
    return { id: `rev_${seed}`, pages: level(0) };
  }

  const outline = (
    pages: readonly { title?: string | undefined; markdown?: string | undefined; pages?: unknown }[],
  ): unknown[] =>
    pages.map((item) => ({
      title: item.title,
      markdown: item.markdown,
      pages: outline((item.pages ?? []) as typeof pages),
    }));

  it('import(export(revision)) gives the same titles, nesting and markdown', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const revision = serviceRevision(seed);
      const plan = planExport(revision);
      expect(plan.problems, `seed ${seed}`).toEqual([]);
      const back = folderToTree(treeToFolder(treeOf(plan, new Map())));
      expect(outline(back.pages), `seed ${seed}`).toEqual(outline(revision.pages ?? []));
    }
  });
});
