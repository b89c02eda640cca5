import { describe, expect, it } from 'vitest';
import type { DocsFile, DocsPage, DocsTree } from '../../../src/content/docs-tree.js';
import { folderToTree } from '../../../src/content/folder-to-tree.js';
import { classifyLink, extractLinks } from '../../../src/content/markdown-links.js';
import { readZip } from '../../../src/content/read-zip.js';
import { treeToFolder } from '../../../src/content/tree-to-folder.js';
import { writeZip } from '../../../src/content/write-zip.js';

/** mulberry32: a small seeded generator, so a failing case can be replayed from its seed. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number): number => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => {
    const item = items[int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  };
  return { int, pick, chance: (p: number): boolean => next() < p };
}
type Random = ReturnType<typeof seeded>;

const FOLDERS = ['', 'guides/', 'guides/advanced/', 'api (v2)/', 'ünïcode/', 'Getting Started/'];
const NAMES = [
  'intro',
  'install',
  'Über',
  '日本語',
  'café menu',
  'a(b)',
  '100%',
  'q#1',
  'x[y]',
  "it's",
  'Zeta',
  'faq',
];
const TITLE_WORDS = [
  'Install',
  '*fast*',
  '[beta]',
  'back\\slash',
  '`code`',
  'Привет',
  '🚀',
  'C#',
  'émigré',
  '#1',
  'a_b',
];
const FILE_TYPES: Record<string, string> = {
  png: 'image/png',
  pdf: 'application/pdf',
  svg: 'image/svg+xml',
  bin: 'application/octet-stream',
};

function title(random: Random): string {
  return Array.from({ length: 1 + random.int(3) }, () => random.pick(TITLE_WORDS)).join(' ');
}

function bytes(random: Random): Buffer {
  return Buffer.from(Array.from({ length: random.int(300) }, () => random.int(256)));
}

/** `to` as a link from the page at `from`, percent-encoding what a link would otherwise misread. */
function href(from: string, to: string): string {
  const up = from.split('/').slice(0, -1);
  const target = to.split('/');
  let shared = 0;
  while (shared < up.length && shared < target.length - 1 && up[shared] === target[shared]) shared += 1;
  const relative = [...up.slice(shared).map(() => '..'), ...target.slice(shared)].join('/');
  return relative.replace(/[%#?]/g, encodeURIComponent);
}

function markdown(random: Random, ownTitle: string, path: string, targets: readonly string[]): string {
  const lines: string[] = [];
  const heading = random.int(4);
  if (heading === 0) lines.push(`# ${ownTitle}`);
  if (heading === 1) lines.push(`# ${title(random)}`);
  if (random.chance(0.3)) lines.push('```sh', '# not a heading', '```');
  for (let i = random.int(4); i > 0; i -= 1) {
    const target = random.pick([...targets, path]);
    lines.push(
      `See [${title(random)}](<${href(path, target)}>) and ![x](${href(path, target).replaceAll(' ', '%20')}).`,
    );
  }
  const eol = random.chance(0.2) ? '\r\n' : '\n';
  return lines.join(eol) + (random.chance(0.8) ? eol : '');
}

function randomTree(seed: number): DocsTree {
  const random = seeded(seed);
  const taken = new Set<string>();
  const unique = (make: () => string): string => {
    for (;;) {
      const path = make();
      if (!taken.has(path)) {
        taken.add(path);
        return path;
      }
    }
  };
  const files: DocsFile[] = Array.from({ length: random.int(4) }, () => {
    const extension = random.pick(Object.keys(FILE_TYPES));
    const path = unique(() => `${random.pick(FOLDERS)}${random.pick(NAMES)}.${extension}`);
    const name = path.split('/').at(-1) ?? path;
    return { path, name, contentType: FILE_TYPES[extension] ?? '', data: bytes(random) };
  });
  const pagePaths = Array.from({ length: random.int(10) }, () =>
    unique(() => `${random.pick(FOLDERS)}${random.chance(0.2) ? 'README' : random.pick(NAMES)}.md`),
  ).filter((path) => path !== 'README.md');
  if (random.chance(0.7)) pagePaths.unshift('README.md');
  const targets = [...pagePaths, ...files.map((file) => file.path)];

  const top: DocsPage[] = [];
  const placed: DocsPage[] = [];
  for (const path of pagePaths) {
    const pageTitle = random.chance(0.3)
      ? (path.split('/').at(-1) ?? path).replace(/\.md$/, '')
      : title(random);
    const page: DocsPage = {
      path,
      title: pageTitle,
      slug: '',
      markdown: markdown(random, pageTitle, path, targets),
      pages: [],
    };
    const parent =
      path === 'README.md' || placed.length === 0 || random.chance(0.4) ? undefined : random.pick(placed);
    (parent?.pages ?? top).push(page);
    placed.push(page);
  }
  return { pages: top, files };
}

/** What a round trip must keep: slugs are derived and ids are the service's, so neither counts. */
function shape(tree: DocsTree) {
  const pages = (list: readonly DocsPage[]): unknown[] =>
    list.map((page) => ({
      path: page.path,
      title: page.title,
      markdown: page.markdown,
      pages: pages(page.pages),
    }));
  const files = [...tree.files].sort((a, b) => (a.path < b.path ? -1 : 1));
  return { pages: pages(tree.pages), files };
}

function sorted(folder: Map<string, Buffer>): [string, Buffer][] {
  return [...folder].sort(([a], [b]) => (a < b ? -1 : 1));
}

const SEEDS = Array.from({ length: 300 }, (_, i) => i + 1);

describe('round trips over generated trees', () => {
  it('folderToTree(treeToFolder(tree)) gives the same pages and files', () => {
    for (const seed of SEEDS) {
      const tree = randomTree(seed);
      expect(shape(folderToTree(treeToFolder(tree))), `seed ${seed}`).toEqual(shape(tree));
    }
  });

  it('treeToFolder(folderToTree(folder)) gives back a written folder byte for byte', () => {
    let withSummary = 0;
    for (const seed of SEEDS) {
      const folder = treeToFolder(randomTree(seed));
      if (folder.has('SUMMARY.md')) withSummary += 1;
      expect(sorted(treeToFolder(folderToTree(folder))), `seed ${seed}`).toEqual(sorted(folder));
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
      expect(sorted(treeToFolder(folderToTree(folder))), `seed ${seed}`).toEqual(sorted(folder));
    }
  });

  it('survives a zip in between, and every generated link still lands', async () => {
    for (const seed of SEEDS.slice(0, 60)) {
      const tree = randomTree(seed);
      if (tree.pages[0]?.path !== 'README.md') continue; // a lone folder would be taken for a wrapper
      const back = folderToTree(await readZip(await writeZip(treeToFolder(tree))));
      expect(shape(back), `seed ${seed}`).toEqual(shape(tree));
      const visit = (pages: readonly DocsPage[]): void => {
        for (const page of pages) {
          for (const link of extractLinks(page.markdown)) {
            expect(
              classifyLink(link, page.path, back, { appOrigins: [] }).status,
              `${page.path} → ${link}`,
            ).toBe('ok');
          }
          visit(page.pages);
        }
      };
      visit(back.pages);
    }
  });
});
