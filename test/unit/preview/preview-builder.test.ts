import { describe, expect, it } from 'vitest';
import type { DocsPage } from '../../../src/content/docs-tree.js';
import { sitePages } from '../../../src/preview/bundle-pages.js';
import { PreviewBuilder } from '../../../src/preview/preview-builder.js';
import { previewLogFields } from '../../../src/preview/preview-log-fields.js';
import { servicePagesByPath } from '../../../src/preview/service-pages.js';

const live = { kind: 'live', revision: 'rev_1' } as const;

describe('PreviewBuilder', () => {
  it('counts every page and lists changes by path with their lines', () => {
    const builder = new PreviewBuilder(live);
    builder.removed('old', 20);
    builder.compared('install', { added: 3, removed: 1, exact: true });
    builder.added('guides/new', 5);
    builder.compared('same', { added: 0, removed: 0, exact: true });
    builder.same();
    expect(builder.finish()).toEqual({
      against: live,
      added: 1,
      changed: 1,
      removed: 1,
      unchanged: 2,
      linesAdded: 8,
      linesRemoved: 21,
      pages: [
        { path: 'guides/new', change: 'added', linesAdded: 5, linesRemoved: 0 },
        { path: 'install', change: 'changed', linesAdded: 3, linesRemoved: 1 },
        { path: 'old', change: 'removed', linesAdded: 0, linesRemoved: 20 },
      ],
      notListed: 0,
      approximate: false,
    });
  });

  it('keeps only the first pages by path past its cap, with the totals of all', () => {
    const builder = new PreviewBuilder(live, 3);
    // Reverse order: the ones kept must be the first by path, not the first seen.
    for (let n = 999; n >= 0; n -= 1) builder.added(`p${String(n).padStart(4, '0')}`, 1);
    builder.compared('big', { added: 7, removed: 2, exact: false });
    const preview = builder.finish();
    expect(preview.pages.map((page) => page.path)).toEqual(['big', 'p0000', 'p0001']);
    expect(preview).toMatchObject({
      added: 1000,
      changed: 1,
      notListed: 998,
      linesAdded: 1007,
      approximate: true,
    });
  });
});

describe('page paths on both sides', () => {
  it('joins slugs under groups and parents, and leaves links and groups out', () => {
    const pages: DocsPage[] = [
      { path: 'README.md', title: 'Home', slug: 'readme', markdown: '# Home', pages: [] },
      {
        kind: 'group',
        title: 'Guides',
        slug: 'guides',
        pages: [
          {
            path: 'install.md',
            title: 'Install',
            slug: 'install',
            markdown: 'x',
            pages: [{ kind: 'placeholder', title: 'Later', slug: 'later', pages: [] }],
          },
          { kind: 'link', title: 'Status', slug: 'status', href: 'https://status.example.com' },
        ],
      },
    ];
    expect(sitePages(pages)).toEqual([
      { path: 'readme', markdown: '# Home' },
      { path: 'guides/install', markdown: 'x' },
      { path: 'guides/install/later', markdown: '' },
    ]);
    const service = servicePagesByPath([
      { id: 'p1', type: 'document', slug: 'readme', path: 'readme', markdown: '# Home' },
      {
        id: 'g1',
        type: 'group',
        slug: 'guides',
        pages: [{ id: 'p2', type: 'document', slug: 'install', git: { oid: 'abc' } }],
      },
      { id: 'l1', type: 'link', href: 'https://status.example.com' },
    ]);
    expect([...service.values()]).toEqual([
      { id: 'p1', path: 'readme', markdown: '# Home', oid: undefined },
      { id: 'p2', path: 'guides/install', markdown: undefined, oid: 'abc' },
    ]);
  });
});

describe('previewLogFields', () => {
  it('gives the counts, the change request and the first paths with their signs', () => {
    const builder = new PreviewBuilder({ kind: 'change-request', id: 'cr_1', number: 4, revision: 'rev_2' });
    builder.added('new', 2);
    builder.removed('gone', 1);
    for (let n = 0; n < 30; n += 1) builder.compared(`z${n}`, { added: 1, removed: 1, exact: true });
    const fields = previewLogFields(builder.finish());
    expect(fields).toMatchObject({
      against: 'change-request',
      cr: 'cr_1',
      number: 4,
      comparedRevision: 'rev_2',
      added: 1,
      changed: 30,
      removed: 1,
      linesAdded: 32,
      linesRemoved: 31,
    });
    expect((fields.firstPaths as string[]).slice(0, 3)).toEqual(['-gone', '+new', '~z0']);
    expect(fields.firstPaths).toHaveLength(20);
  });
});
