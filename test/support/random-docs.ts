// Generated docs trees for round-trip property tests: seeded (a failing case replays from its
// seed), with nesting, groups, link and placeholder entries, titles that need escaping, links
// between pages and to files, code blocks, CRLF line ends and binary files.
import {
  type DocsDocument,
  type DocsFile,
  type DocsGroup,
  type DocsPage,
  type DocsTree,
  isDocument,
} from '../../src/content/docs-tree.js';

/** mulberry32: a small seeded generator, so a failing case can be replayed from its seed. */
export function seeded(seed: number) {
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
export type Random = ReturnType<typeof seeded>;

export const FOLDERS = ['', 'guides/', 'guides/advanced/', 'api (v2)/', 'ünïcode/', 'Getting Started/'];
export const NAMES = [
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

export function title(random: Random): string {
  return Array.from({ length: 1 + random.int(3) }, () => random.pick(TITLE_WORDS)).join(' ');
}

export function bytes(random: Random): Buffer {
  return Buffer.from(Array.from({ length: random.int(300) }, () => random.int(256)));
}

/** `to` as a link from the page at `from`, percent-encoding what a link would otherwise misread. */
export function href(from: string, to: string): string {
  const up = from.split('/').slice(0, -1);
  const target = to.split('/');
  let shared = 0;
  while (shared < up.length && shared < target.length - 1 && up[shared] === target[shared]) shared += 1;
  const relative = [...up.slice(shared).map(() => '..'), ...target.slice(shared)].join('/');
  return relative.replace(/[%#?]/g, encodeURIComponent);
}

export function markdown(random: Random, ownTitle: string, path: string, targets: readonly string[]): string {
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

/** A tree in tree-to-folder's normal form; `kinds`: also groups, links and placeholders. */
export function randomTree(seed: number, kinds = true): DocsTree {
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

  // The readme is the summary's first entry; groups sit at the top level, after it.
  const top: DocsPage[] = [];
  const groups: DocsGroup[] = [];
  for (let g = kinds && random.chance(0.35) ? 1 + random.int(2) : 0; g > 0; g -= 1)
    groups.push({ kind: 'group', title: title(random), slug: '', pages: [] });
  if (pagePaths[0] !== 'README.md') top.push(...groups);
  const topLevel = (): DocsPage[] =>
    groups.length > 0 && random.chance(0.6) ? random.pick(groups).pages : top;
  const placed: Array<DocsDocument | Extract<DocsPage, { kind: 'placeholder' }>> = [];
  const somewhere = (): DocsPage[] =>
    placed.length > 0 && random.chance(0.5) ? random.pick(placed).pages : topLevel();
  for (const path of pagePaths) {
    const pageTitle = random.chance(0.3)
      ? (path.split('/').at(-1) ?? path).replace(/\.md$/, '')
      : title(random);
    const page: DocsDocument = {
      path,
      title: pageTitle,
      slug: '',
      markdown: markdown(random, pageTitle, path, targets),
      pages: [],
    };
    if (path === 'README.md') {
      top.push(page, ...groups);
    } else {
      const parent = placed.length === 0 || random.chance(0.4) ? undefined : random.pick(placed);
      (parent?.pages ?? topLevel()).push(page);
    }
    placed.push(page);
    if (kinds && random.chance(0.12)) {
      const placeholder = { kind: 'placeholder' as const, title: title(random), slug: '', pages: [] };
      somewhere().push(placeholder);
      placed.push(placeholder);
    }
    if (kinds && random.chance(0.12)) {
      const site = random.pick(NAMES).replace(/[^a-z]/gi, '') || 'site';
      somewhere().push({
        kind: 'link',
        title: title(random),
        slug: '',
        href: `https://example.com/${site}?n=${random.int(100)}`,
      });
    }
  }
  return { pages: top, files };
}

/** What a round trip must keep: slugs are derived and ids are the service's, so neither counts. */
export function treeShape(tree: DocsTree) {
  const pages = (list: readonly DocsPage[]): unknown[] =>
    list.map((page) => {
      if (isDocument(page))
        return { path: page.path, title: page.title, markdown: page.markdown, pages: pages(page.pages) };
      if (page.kind === 'link') return { kind: 'link', title: page.title, href: page.href };
      return { kind: page.kind, title: page.title, pages: pages(page.pages) };
    });
  const files = [...tree.files].sort((a, b) => (a.path < b.path ? -1 : 1));
  return { pages: pages(tree.pages), files };
}

export function sortedFolder(folder: Map<string, Buffer>): [string, Buffer][] {
  return [...folder].sort(([a], [b]) => (a < b ? -1 : 1));
}
