import { describe, expect, it } from 'vitest';
import {
  type ContentTree,
  isTreeDocument,
  type TreeDocument,
  type TreePage,
  treeChildren,
} from '../../../src/emulator/folder/content-tree.js';
import { mergeTrees } from '../../../src/emulator/merge-trees.js';

function page(path: string, markdown = `# ${path}\n`, pages: TreePage[] = []): TreeDocument {
  return { path, title: path, slug: path.replace(/\.md$/, ''), markdown, pages };
}

function group(title: string, pages: TreePage[]): TreePage {
  return { kind: 'group', title, slug: title.toLowerCase(), pages };
}

function placeholder(title: string, pages: TreePage[] = []): TreePage {
  return { kind: 'placeholder', title, slug: title.toLowerCase(), pages };
}

function link(title: string, href: string): TreePage {
  return { kind: 'link', title, slug: title.toLowerCase(), href };
}

function tree(...pages: TreePage[]): ContentTree {
  return { pages, files: [] };
}

/** Documents by path; the other kinds as `kind:title`. */
const paths = (pages: readonly TreePage[]): unknown[] =>
  pages.map((p) => {
    const name = isTreeDocument(p) ? p.path : `${p.kind}:${p.title}`;
    const children = treeChildren(p);
    return children.length > 0 ? [name, paths(children)] : name;
  });

const markdownOf = (p: TreePage | undefined) =>
  p !== undefined && isTreeDocument(p) ? p.markdown : undefined;

describe('mergeTrees', () => {
  const base = tree(page('README.md'), page('a.md'), page('b.md'));

  it('keeps the edits of both sides when they touch different pages', () => {
    const ours = tree(page('README.md'), page('a.md', 'ours'), page('b.md'));
    const theirs = tree(page('README.md', 'theirs'), page('a.md'), page('b.md'));
    const merged = mergeTrees(base, ours, theirs);
    expect(merged.pages.map(markdownOf)).toEqual(['theirs', 'ours', '# b.md\n']);
  });

  it('lets the change request win when both sides edited the same page', () => {
    const merged = mergeTrees(
      base,
      tree(page('README.md'), page('a.md', 'ours'), page('b.md')),
      tree(page('README.md'), page('a.md', 'theirs'), page('b.md')),
    );
    expect(markdownOf(merged.pages[1])).toBe('ours');
  });

  it('applies pages the change request added or removed, and keeps pages main added', () => {
    const ours = tree(page('README.md'), page('a.md', '# a.md\n', [page('a/child.md')]), page('new.md'));
    const theirs = tree(page('README.md'), page('a.md'), page('b.md'), page('main-only.md'));
    // An added page goes after the sibling it follows in the change request.
    expect(paths(mergeTrees(base, ours, theirs).pages)).toEqual([
      'README.md',
      ['a.md', ['a/child.md']],
      'new.md',
      'main-only.md',
    ]);
  });

  it('drops a page main removed when the change request did not edit it', () => {
    const theirs = tree(page('README.md'), page('b.md'));
    expect(paths(mergeTrees(base, base, theirs).pages)).toEqual(['README.md', 'b.md']);
  });

  it('keeps groups, links and placeholders, and applies the change request’s edits to them', () => {
    const start = tree(
      page('README.md'),
      group('Basics', [
        placeholder('Overview', [page('a.md')]),
        link('Status', 'https://status.example.com'),
      ]),
      group('More', [page('b.md')]),
    );
    // The change request retitles the status link, adds a link under the placeholder and a group.
    const ours = tree(
      page('README.md'),
      group('Basics', [
        placeholder('Overview', [page('a.md'), link('Chat', 'https://chat.example.com')]),
        { ...link('Status', 'https://status.example.com'), title: 'Service status' },
      ]),
      group('More', [page('b.md')]),
      group('Added', [page('new.md')]),
    );
    // Main meanwhile edited a page inside a group and removed the second group.
    const theirs = tree(
      page('README.md'),
      group('Basics', [
        placeholder('Overview', [page('a.md', 'edited on main')]),
        link('Status', 'https://status.example.com'),
      ]),
    );
    const merged = mergeTrees(start, ours, theirs);
    expect(paths(merged.pages)).toEqual([
      'README.md',
      ['group:Basics', [['placeholder:Overview', ['a.md', 'link:Chat']], 'link:Service status']],
      ['group:Added', ['new.md']],
    ]);
    const basics = merged.pages[1];
    const overview = basics === undefined ? undefined : treeChildren(basics)[0];
    expect(markdownOf(overview === undefined ? undefined : treeChildren(overview)[0])).toBe('edited on main');
    expect(basics === undefined ? undefined : treeChildren(basics)[1]).toEqual({
      kind: 'link',
      title: 'Service status',
      slug: 'status',
      href: 'https://status.example.com',
    });
  });

  it('removes a group or a link the change request removed, keeping what main added to the tree', () => {
    const start = tree(page('README.md'), group('Old', [link('Status', 'https://status.example.com')]));
    const ours = tree(page('README.md'));
    const theirs = tree(
      page('README.md'),
      group('Old', [link('Status', 'https://status.example.com')]),
      page('main.md'),
    );
    expect(paths(mergeTrees(start, ours, theirs).pages)).toEqual(['README.md', 'main.md']);
  });

  it('moves the pages of a group the change request renamed, keeping main’s edits to them', () => {
    const start = tree(page('README.md'), group('Basics', [page('a.md'), page('b.md')]));
    const ours = tree(page('README.md'), group('Essentials', [page('a.md'), page('b.md')]));
    const theirs = tree(page('README.md'), group('Basics', [page('a.md', 'edited on main'), page('b.md')]));
    const merged = mergeTrees(start, ours, theirs);
    expect(paths(merged.pages)).toEqual(['README.md', ['group:Essentials', ['a.md', 'b.md']]]);
    const essentials = merged.pages[1];
    expect(markdownOf(essentials === undefined ? undefined : treeChildren(essentials)[0])).toBe(
      'edited on main',
    );
  });

  it('tells apart placeholders of the same title under different pages', () => {
    const start = tree(group('A', [placeholder('Overview')]), group('B', [placeholder('Overview')]));
    const ours = tree(group('A', [placeholder('Overview')]), group('B', []));
    expect(paths(mergeTrees(start, ours, start).pages)).toEqual([
      ['group:A', ['placeholder:Overview']],
      'group:B',
    ]);
  });

  it('merges files by path and content', () => {
    const file = (path: string, data: string) => ({
      path,
      name: path,
      contentType: 'image/png',
      data: Buffer.from(data),
    });
    const withFiles = (...files: ReturnType<typeof file>[]): ContentTree => ({ pages: [], files });
    const merged = mergeTrees(
      withFiles(file('a.png', '1'), file('b.png', '1')),
      withFiles(file('a.png', '2'), file('c.png', '1')),
      withFiles(file('a.png', '1'), file('b.png', '3'), file('d.png', '1')),
    );
    expect(merged.files.map((f) => [f.path, f.data.toString()])).toEqual([
      ['a.png', '2'],
      ['c.png', '1'],
      ['d.png', '1'],
    ]);
  });
});
