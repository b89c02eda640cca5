import { describe, expect, it } from 'vitest';
import type { DocsPage, DocsTree } from '../../../src/content/docs-tree.js';
import { mergeTrees } from '../../../src/emulator/merge-trees.js';

function page(path: string, markdown = `# ${path}\n`, pages: DocsPage[] = []): DocsPage {
  return { path, title: path, slug: path.replace(/\.md$/, ''), markdown, pages };
}

function tree(...pages: DocsPage[]): DocsTree {
  return { pages, files: [] };
}

const paths = (pages: readonly DocsPage[]): unknown[] =>
  pages.map((p) => (p.pages.length > 0 ? [p.path, paths(p.pages)] : p.path));

describe('mergeTrees', () => {
  const base = tree(page('README.md'), page('a.md'), page('b.md'));

  it('keeps the edits of both sides when they touch different pages', () => {
    const ours = tree(page('README.md'), page('a.md', 'ours'), page('b.md'));
    const theirs = tree(page('README.md', 'theirs'), page('a.md'), page('b.md'));
    const merged = mergeTrees(base, ours, theirs);
    expect(merged.pages.map((p) => p.markdown)).toEqual(['theirs', 'ours', '# b.md\n']);
  });

  it('lets the change request win when both sides edited the same page', () => {
    const merged = mergeTrees(
      base,
      tree(page('README.md'), page('a.md', 'ours'), page('b.md')),
      tree(page('README.md'), page('a.md', 'theirs'), page('b.md')),
    );
    expect(merged.pages[1]?.markdown).toBe('ours');
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

  it('merges files by path and content', () => {
    const file = (path: string, data: string) => ({
      path,
      name: path,
      contentType: 'image/png',
      data: Buffer.from(data),
    });
    const withFiles = (...files: ReturnType<typeof file>[]): DocsTree => ({ pages: [], files });
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
