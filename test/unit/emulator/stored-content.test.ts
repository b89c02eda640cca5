import { describe, expect, it } from 'vitest';
import type { ContentTree } from '../../../src/emulator/folder/content-tree.js';
import { storedToTree, treeToStored } from '../../../src/emulator/stored-content.js';

const tree: ContentTree = {
  pages: [
    { path: 'README.md', title: 'Welcome', slug: 'readme', markdown: '# Welcome\n', pages: [] },
    {
      kind: 'group',
      title: 'Basics',
      slug: 'basics',
      pages: [
        {
          kind: 'placeholder',
          title: 'Overview',
          slug: 'overview',
          pages: [{ path: 'a.md', title: 'A', slug: 'a', markdown: '# A\n', pages: [] }],
        },
        { kind: 'link', title: 'Status', slug: 'status', href: 'https://status.example.com' },
      ],
    },
  ],
  files: [],
};

describe('treeToStored and storedToTree', () => {
  const stored = treeToStored(tree, undefined, '2024-01-01T00:00:00.000Z');

  it('stores each kind as the service types it: a placeholder is a document with no file', () => {
    const [readme, basics] = stored.pages;
    expect(readme).toMatchObject({ type: 'document', sourcePath: 'README.md', markdown: '# Welcome\n' });
    expect(basics).toMatchObject({ type: 'group', title: 'Basics', markdown: '' });
    expect(basics).not.toHaveProperty('sourcePath');
    const [overview, status] = basics?.pages ?? [];
    expect(overview).toMatchObject({
      type: 'document',
      title: 'Overview',
      markdown: '',
      pages: [{ title: 'A' }],
    });
    expect(overview).not.toHaveProperty('sourcePath');
    expect(status).toMatchObject({ type: 'link', href: 'https://status.example.com', pages: [] });
  });

  it('reads the stored pages back as the same tree, with their ids', () => {
    const back = storedToTree(stored);
    const withoutIds = JSON.parse(JSON.stringify(back, (key, value) => (key === 'id' ? undefined : value)));
    expect(withoutIds).toEqual(JSON.parse(JSON.stringify(tree)));
    expect(back.pages[1]?.id).toBe(stored.pages[1]?.id);
  });

  it('keeps the ids and dates of groups, links and placeholders across a re-import', () => {
    const again = treeToStored(tree, stored, '2024-02-02T00:00:00.000Z');
    expect(again.pages.map((page) => page.id)).toEqual(stored.pages.map((page) => page.id));
    expect(again.pages[1]?.pages.map((page) => [page.id, page.updatedAt])).toEqual(
      stored.pages[1]?.pages.map((page) => [page.id, '2024-01-01T00:00:00.000Z']),
    );
  });

  it('dates an edit of a link’s title and keeps its id; a new address is a new link', () => {
    const edited = structuredClone(tree);
    const basics = edited.pages[1];
    const status = basics?.kind === 'group' ? basics.pages[1] : undefined;
    if (status?.kind === 'link') status.title = 'Service status';
    const retitled = treeToStored(edited, stored, '2024-02-02T00:00:00.000Z');
    expect(retitled.pages[1]?.pages[1]).toMatchObject({
      id: stored.pages[1]?.pages[1]?.id,
      title: 'Service status',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-02-02T00:00:00.000Z',
    });
    if (status?.kind === 'link') status.href = 'https://status.example.org';
    const moved = treeToStored(edited, stored, '2024-02-02T00:00:00.000Z');
    expect(moved.pages[1]?.pages[1]?.id).not.toBe(stored.pages[1]?.pages[1]?.id);
  });

  it('reads a page stored before page types as a document', () => {
    const old = {
      id: 'pg_old',
      title: 'Old',
      slug: 'old',
      sourcePath: 'old.md',
      markdown: '# Old\n',
      createdAt: '2023-01-01T00:00:00.000Z',
      updatedAt: '2023-01-01T00:00:00.000Z',
      pages: [],
    };
    expect(storedToTree({ pages: [old], files: [] }).pages).toEqual([
      { id: 'pg_old', title: 'Old', slug: 'old', path: 'old.md', markdown: '# Old\n', pages: [] },
    ]);
  });
});
