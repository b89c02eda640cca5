import { describe, expect, it } from 'vitest';
import type { RevisionPage } from '../../../src/api/schemas/revision-page-schema.js';
import { allDocuments } from '../../../src/content/docs-tree.js';
import { folderOfSibling, newPageFolder } from '../../../src/export/new-page-folder.js';
import { planExport } from '../../../src/export/revision-to-tree.js';

/** A page that came from a folder: its file in git. */
function filed(id: string, path: string, pages: RevisionPage[] = []): RevisionPage {
  return { id, title: id, slug: id, markdown: `# ${id}\n`, git: { path }, pages };
}

/** A page made in the service: no file, its place on the site in `path`. */
function made(id: string, site: string, pages: RevisionPage[] = []): RevisionPage {
  return { id, title: id, slug: id, path: site, markdown: `# ${id}\n`, pages };
}

function group(id: string, pages: RevisionPage[]): RevisionPage {
  return { id, type: 'group', title: id, slug: id, path: id, pages };
}

/** Path of each document by page id. */
function pathsOf(pages: RevisionPage[], existing: string[] = []): Record<string, string> {
  const plan = planExport({ id: 'rev_1', pages }, { existing: new Set(existing) });
  expect(plan.problems).toEqual([]);
  return Object.fromEntries(allDocuments(plan.pages).map((page) => [page.id, page.path]));
}

describe('newPageFolder', () => {
  it('takes the folder most sibling files share', () => {
    expect(newPageFolder({ siblings: ['a', 'b', undefined, 'b'], index: 2, parent: 'p' })).toBe('b');
  });

  it('breaks a tie with the nearest sibling before the page, else the nearest after it', () => {
    expect(newPageFolder({ siblings: ['a', 'b', undefined, 'a', 'b'], index: 2, parent: undefined })).toBe(
      'b',
    );
    expect(newPageFolder({ siblings: [undefined, 'a', 'b'], index: 0, parent: undefined })).toBe('a');
  });

  it("falls back to the parent's folder, then to nothing (the derived path)", () => {
    expect(newPageFolder({ siblings: [undefined, undefined], index: 1, parent: 'guides' })).toBe('guides');
    expect(newPageFolder({ siblings: [undefined], index: 0, parent: '' })).toBe('');
    expect(newPageFolder({ siblings: [undefined], index: 0, parent: undefined })).toBeUndefined();
  });

  it('counts a folder readme with children in the folder above it', () => {
    expect(folderOfSibling('guides/README.md', true, true)).toBe('');
    expect(folderOfSibling('guides/README.md', false, true)).toBe('guides');
    expect(folderOfSibling('guides/install.md', true, false)).toBe('guides');
    expect(folderOfSibling('README.md', true, true)).toBe('');
  });
});

describe('planExport places a page made in the service beside its siblings', () => {
  // The shape of a real repository: a group "version-9" on the site whose pages live in contents/9/.
  const version9 = (added: RevisionPage) => [
    filed('home', 'README.md'),
    group('version-9', [
      filed('intro', 'contents/9/README.md'),
      filed('install', 'contents/9/install.md'),
      added,
      filed('upgrade', 'contents/9/upgrade.md'),
    ]),
  ];

  it('writes a page added to a group whose pages are in contents/9/ to contents/9/<slug>.md', () => {
    expect(pathsOf(version9(made('migrate', 'version-9/migrate'))).migrate).toBe('contents/9/migrate.md');
  });

  it('never takes a path git holds, in any letter case', () => {
    const paths = pathsOf(version9(made('migrate', 'version-9/migrate')), [
      'README.md',
      'contents/9/Migrate.md',
    ]);
    expect(paths.migrate).toBe('contents/9/migrate-2.md');
  });

  it('writes a page added beside mining/setup/ pages there, not under the parent’s site path', () => {
    const paths = pathsOf([
      filed('home', 'README.md'),
      filed('mining', 'mining/README.md', [
        {
          ...filed('getting-started', 'mining/getting-started.md', [
            filed('install', 'mining/setup/install.md'),
            filed('configure', 'mining/setup/configure.md'),
            made('troubleshoot', 'mining/getting-started/troubleshoot'),
          ]),
          path: 'mining/getting-started',
        },
      ]),
    ]);
    expect(paths.troubleshoot).toBe('mining/setup/troubleshoot.md');
    expect(paths['getting-started']).toBe('mining/getting-started.md');
  });

  it('keeps every path a person chose, even one apart from its siblings', () => {
    const paths = pathsOf([
      filed('home', 'README.md'),
      group('version-9', [
        filed('a', 'contents/9/a.md'),
        filed('b', 'contents/9/b.md'),
        filed('odd', 'archive/odd.md'),
        made('new', 'version-9/new'),
      ]),
    ]);
    expect(paths).toEqual({
      home: 'README.md',
      a: 'contents/9/a.md',
      b: 'contents/9/b.md',
      odd: 'archive/odd.md',
      new: 'contents/9/new.md',
    });
  });

  it('counts a folder readme holding pages in the folder above it', () => {
    // `guides/README.md` and `faq.md` are both top-level pages: a page between them goes to the root.
    const paths = pathsOf([
      filed('guides', 'guides/README.md', [filed('install', 'guides/install.md')]),
      made('new', 'new'),
      filed('faq', 'faq.md'),
    ]);
    expect(paths.new).toBe('new.md');
  });

  it("puts a new page whose siblings have no file beside its parent's file", () => {
    const paths = pathsOf([
      filed('home', 'README.md'),
      filed('setup', 'manual/setup.md', [made('proxy', 'setup/proxy')]),
    ]);
    expect(paths.proxy).toBe('manual/proxy.md');
  });

  it('keeps the path derived from the site when no sibling or parent has a file', () => {
    const paths = pathsOf([
      filed('home', 'README.md'),
      group('version-10', [made('start', 'version-10/start'), made('more', 'version-10/more')]),
    ]);
    expect(paths).toMatchObject({ start: 'version-10/start.md', more: 'version-10/more.md' });
  });

  it('gives a new page with children a folder of its own beside its siblings, its children inside', () => {
    const paths = pathsOf(
      version9(made('advanced', 'version-9/advanced', [made('tuning', 'version-9/advanced/tuning')])),
    );
    expect(paths).toMatchObject({
      advanced: 'contents/9/advanced/README.md',
      tuning: 'contents/9/advanced/tuning.md',
    });
  });

  it('puts the children of a new empty page (a placeholder) where its folder would be', () => {
    const plan = planExport({
      id: 'rev_1',
      pages: version9({
        ...made('advanced', 'version-9/advanced', [made('tuning', 'version-9/advanced/tuning')]),
        markdown: '',
      }),
    });
    expect(plan.problems).toEqual([]);
    const tuning = allDocuments(plan.pages).find((page) => page.id === 'tuning');
    expect(tuning?.path).toBe('contents/9/advanced/tuning.md');
  });
});
