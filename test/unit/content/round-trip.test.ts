import { describe, expect, it } from 'vitest';
import { allDocuments, type DocsPage, type DocsTree, isDocument } from '../../../src/content/docs-tree.js';
import { folderToTree } from '../../../src/content/folder-to-tree.js';
import { classifyLink, extractLinks } from '../../../src/content/markdown-links.js';
import { readOutline } from '../../../src/content/read-outline.js';
import { readZip } from '../../../src/content/read-zip.js';
import { treeToFolder } from '../../../src/content/tree-to-folder.js';
import {
  bytes,
  FOLDERS,
  markdown,
  NAMES,
  type Random,
  randomTree,
  seeded,
  sortedFolder,
  title,
  treeShape,
} from '../../support/random-docs.js';
import { writeZip } from '../../support/write-zip.js';

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

function startsWithReadme(tree: DocsTree): boolean {
  const first = tree.pages[0];
  return first !== undefined && isDocument(first) && first.path === 'README.md';
}

describe('round trips over generated trees', () => {
  it('folderToTree(treeToFolder(tree)) gives the same pages and files, groups, links and placeholders', () => {
    const kinds = new Set<string>();
    for (const seed of SEEDS) {
      const tree = randomTree(seed);
      expect(treeShape(folderToTree(treeToFolder(tree))), `seed ${seed}`).toEqual(treeShape(tree));
      for (const kind of JSON.stringify(treeShape(tree)).match(/"kind":"\w+"/g) ?? []) kinds.add(kind);
    }
    expect([...kinds].sort()).toEqual(['"kind":"group"', '"kind":"link"', '"kind":"placeholder"']);
  });

  it('treeToFolder(folderToTree(folder)) gives back a written folder byte for byte', () => {
    let withSummary = 0;
    for (const seed of SEEDS) {
      const folder = treeToFolder(randomTree(seed));
      if (folder.has('SUMMARY.md')) withSummary += 1;
      expect(sortedFolder(treeToFolder(folderToTree(folder))), `seed ${seed}`).toEqual(sortedFolder(folder));
    }
    // Both kinds of folder are exercised: with and without a summary.
    expect(withSummary).toBeGreaterThan(SEEDS.length / 2);
    expect(withSummary).toBeLessThan(SEEDS.length);
  });

  it('a folder without SUMMARY.md comes back without one, byte for byte', () => {
    for (const seed of SEEDS) {
      const random = seeded(seed);
      const folder = new Map<string, Buffer>();
      for (let i = random.int(12); i > 0; i -= 1) {
        const extension = random.pick(['md', 'md', 'png', 'bin']);
        const path = `${random.pick(FOLDERS)}${random.chance(0.2) ? 'README' : random.pick(NAMES)}.${extension}`;
        const content =
          extension === 'md' ? Buffer.from(markdown(random, title(random), path, [])) : bytes(random);
        folder.set(path, content);
      }
      expect(sortedFolder(treeToFolder(folderToTree(folder))), `seed ${seed}`).toEqual(sortedFolder(folder));
    }
  });

  it('survives a zip in between, and every generated link still lands', async () => {
    for (const seed of SEEDS.slice(0, 60)) {
      const tree = randomTree(seed);
      if (!startsWithReadme(tree)) continue; // a lone folder would be taken for a wrapper
      const back = folderToTree(await readZip(await writeZip(treeToFolder(tree))));
      expect(treeShape(back), `seed ${seed}`).toEqual(treeShape(tree));
      for (const page of allDocuments(back.pages)) {
        for (const link of extractLinks(page.markdown)) {
          expect(
            classifyLink(link, page.path, back, { appOrigins: [] }).status,
            `${page.path} → ${link}`,
          ).toBe('ok');
        }
      }
    }
  });
});

/** A summary written as people write theirs: `-` bullets, four-space indents, links from the root, sometimes CRLF. */
function restyled(summary: string, random: Random): string {
  const lines = summary
    .split('\n')
    .map((line) =>
      line
        .replace(/^( *)\* /, (_, indent: string) => `${indent}${indent}- `)
        .replace(/\]\((?![A-Za-z][A-Za-z0-9+.-]+:|<)/, '](/'),
    );
  return lines.join(random.chance(0.3) ? '\r\n' : '\n');
}

type Container = DocsPage[];

/** Every list a page can be put in, but those inside `except`: the top, groups, pages' children. */
function containers(tree: DocsTree, except?: DocsPage): Container[] {
  const found: Container[] = [tree.pages];
  const visit = (pages: readonly DocsPage[]): void => {
    for (const page of pages) {
      if (page === except || page.kind === 'link') continue;
      found.push(page.pages);
      visit(page.pages);
    }
  };
  visit(tree.pages);
  return found;
}

/** Every page with the list it is in, in reading order. */
function entries(tree: DocsTree): Array<[DocsPage, Container]> {
  const found: Array<[DocsPage, Container]> = [];
  const visit = (pages: DocsPage[]): void => {
    for (const page of pages) {
      found.push([page, pages]);
      if (page.kind !== 'link') visit(page.pages);
    }
  };
  visit(tree.pages);
  return found;
}

/** Puts `page` at a random place of `list` that keeps the readme first and groups at the top. */
function insert(tree: DocsTree, list: Container, page: DocsPage, random: Random): void {
  const first = tree.pages[0];
  const readmeFirst = first !== undefined && isDocument(first) && first.path === 'README.md';
  const from = list === tree.pages && readmeFirst ? 1 : 0;
  list.splice(from + random.int(list.length - from + 1), 0, page);
}

/** One edit a writer could make in the service; returns what it was. */
function edit(tree: DocsTree, random: Random, seed: number): string {
  const movable = entries(tree).filter(([page]) => !(isDocument(page) && page.path === 'README.md'));
  const targets = (page: DocsPage) =>
    page.kind === 'group' ? [tree.pages] : containers(tree, page).filter((list) => list !== undefined);
  const kind = random.pick(['markdown', 'rename', 'remove', 'add', 'move', 'group']);
  const picked = movable.length > 0 ? random.pick(movable) : undefined;
  const documents = allDocuments(tree.pages);
  if (kind === 'markdown' && documents.length > 0) {
    random.pick(documents).markdown += '\nOne more line, written in the service.\n';
    return 'markdown';
  }
  const all = entries(tree);
  if (kind === 'rename' && all.length > 0) {
    random.pick(all)[0].title = `Renamed [${seed}] #${random.int(9)}`;
    return 'rename';
  }
  if (kind === 'add' || picked === undefined) {
    const page: DocsPage = {
      path: `added/page-${seed}.md`,
      title: 'Added',
      slug: '',
      markdown: '# Added\n',
      pages: [],
    };
    insert(tree, random.pick(containers(tree)), page, random);
    return 'add';
  }
  if (kind === 'group') {
    const group: DocsPage = { kind: 'group', title: `Group ${seed}`, slug: '', pages: [] };
    insert(tree, tree.pages, group, random);
    return 'group';
  }
  const [page, list] = picked;
  list.splice(list.indexOf(page), 1);
  if (kind === 'remove') return 'remove';
  insert(tree, random.pick(targets(page)), page, random);
  return 'move';
}

/** Whether `small` is `large` with lines taken out and none changed. */
function isSubsequence(small: readonly string[], large: readonly string[]): boolean {
  let at = 0;
  for (const line of large) if (line === small[at]) at += 1;
  return at === small.length;
}

describe('an export over git’s folder, on generated trees and edits', () => {
  it('keeps git’s summary byte for byte without an edit, and edits it to read back as the edited space', () => {
    const seen = new Map<string, number>();
    for (const seed of SEEDS) {
      const random = seeded(seed + 5000);
      const git = treeToFolder(randomTree(seed));
      const original = git.get('SUMMARY.md')?.toString('utf8');
      if (original !== undefined && random.chance(0.6))
        git.set('SUMMARY.md', Buffer.from(restyled(original, random)));
      const summary = git.get('SUMMARY.md');
      const current = {
        summary,
        outline: readOutline(git.keys(), summary?.toString('utf8')).pages,
        staying: [],
      };
      expect(sortedFolder(treeToFolder(folderToTree(git), { current })), `seed ${seed}`).toEqual(
        sortedFolder(git),
      );

      const edited = folderToTree(git);
      const what = edit(edited, random, seed);
      seen.set(what, (seen.get(what) ?? 0) + 1);
      const exported = treeToFolder(edited, { current });
      expect(treeShape(folderToTree(exported)), `seed ${seed}: ${what}`).toEqual(treeShape(edited));
      if (summary === undefined) continue;
      const before = summary.toString('utf8').split('\n');
      const after = exported.get('SUMMARY.md')?.toString('utf8').split('\n') ?? [];
      if (what === 'markdown') expect(after, `seed ${seed}: ${what}`).toEqual(before);
      if (what === 'rename') {
        // One line rewritten, every other line as it was.
        expect(after.length, `seed ${seed}: ${what}`).toBe(before.length);
        expect(after.filter((line, index) => line !== before[index]).length, `seed ${seed}`).toBe(1);
      }
      if (what === 'remove') expect(isSubsequence(after, before), `seed ${seed}: ${what}`).toBe(true);
    }
    for (const what of ['markdown', 'rename', 'remove', 'add', 'move', 'group'])
      expect(seen.get(what) ?? 0, what).toBeGreaterThan(20);
  });
});
