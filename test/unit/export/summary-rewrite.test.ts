// The export's folder over git's, without git: the owned files (the bundle plan), the space's tree
// as the import gave it, an edit in the service, and what writing it back changes. SUMMARY.md is
// kept byte for byte, or edited only where the structure changed, in the file's own style.
import { describe, expect, it } from 'vitest';
import { mappingSchema } from '../../../src/config/mapping-schema.js';
import type { UnlistedPages } from '../../../src/content/docs-outline.js';
import {
  allDocuments,
  type DocsDocument,
  type DocsPage,
  type DocsTree,
  isDocument,
} from '../../../src/content/docs-tree.js';
import { blobId } from '../../../src/content/folder-bytes.js';
import { folderToTree } from '../../../src/content/folder-to-tree.js';
import { type GitbookLayout, readGitbookLayout } from '../../../src/content/gitbook-layout.js';
import { treeToFolder } from '../../../src/content/tree-to-folder.js';
import { planFolderChanges } from '../../../src/export/plan-folder-commit.js';
import { planOwned } from '../../../src/export/read-git-folder.js';

const MAPPING = { name: 'docs', space: 'space', git: { repo: 'repo.git', branch: 'main' } };

/** SUMMARY's lines 5 to 14, in its own style: a summary written anew keeps them as they are. */
const GROUPS = [
  '## Getting Started',
  '',
  '- [Getting Started](/getting-started/README.md)',
  '    - [Quick start](/getting-started/quick-start.md)',
  '    - [Install](/getting-started/install.md)',
  '',
  '## More',
  '',
  '- Resources',
  '    - [Status page](https://status.example.com)',
];

const SUMMARY = [
  '# Table of contents',
  '',
  '* [Introduction](INTRODUCTION.md)',
  '',
  ...GROUPS,
  '    - [Quick start again](/getting-started/quick-start.md)',
  '    - [Old page](old/removed-page.md)',
  '- [Appendix](/appendix/)',
  '',
].join('\n');

const GIT: Record<string, string> = {
  '.gitbook.yaml': 'root: ./\nstructure:\n  readme: INTRODUCTION.md\n  summary: SUMMARY.md\n',
  'README.md': '# For the git host\n',
  '.gitignore': '_book/\n',
  'INTRODUCTION.md': '# Introduction\n\nStart here.\n',
  'getting-started/README.md': '# Getting Started\n',
  'getting-started/quick-start.md': '# Quick start\n\nRun it.\n',
  'getting-started/install.md': '# Install\n',
  'appendix/README.md': '# Appendix\n',
  'notes.md': '# Notes, not listed\n',
  'SUMMARY.md': SUMMARY,
};

interface Exported {
  summary: string | undefined;
  write: Record<string, string>;
  remove: string[];
}

/** The space as the import of `git` gave it (paths as in git), edited, and written back over `git`. */
function exportOver(
  git: Record<string, string>,
  edit: (tree: DocsTree) => void = () => {},
  unlisted: UnlistedPages = 'skip',
): Exported {
  const layout: GitbookLayout = readGitbookLayout(git['.gitbook.yaml']);
  const listing = Object.entries(git).map(([path, text]) => ({
    path,
    mode: '100644',
    size: Buffer.byteLength(text),
  }));
  const settings = mappingSchema.parse({ ...MAPPING, import: { unlisted } }).import;
  const plan = planOwned(listing, layout, settings, git[layout.summary]);
  const owned = new Set(plan.entries.map((entry) => entry.path));
  const sent = new Map([...owned].map((path) => [path, Buffer.from(git[path] ?? '')]));
  const options = { readme: layout.readme, summary: layout.summary, unlisted };
  const tree = folderToTree(sent, options);
  edit(tree);
  const summary = git[layout.summary];
  const folder = treeToFolder(tree, {
    ...options,
    current: {
      summary: summary === undefined ? undefined : Buffer.from(summary),
      outline: plan.outline,
      staying: plan.leftOut.filter((file) => file.reason === 'unlisted').map((file) => file.path),
    },
  });
  const blobs = Object.entries(git).map(([path, text]) => ({ path, blob: blobId(Buffer.from(text), 40) }));
  const changes = planFolderChanges(blobs, owned, folder);
  expect(changes.problems).toEqual([]);
  return {
    summary: folder.get(layout.summary)?.toString('utf8'),
    write: Object.fromEntries([...changes.write].map(([path, data]) => [path, data.toString('utf8')])),
    remove: changes.remove,
  };
}

function document(tree: DocsTree, path: string): DocsDocument {
  const found = allDocuments(tree.pages).find((page) => page.path === path);
  if (found === undefined) throw new Error(`no page ${path}`);
  return found;
}

/** The list holding `page` and its index there. */
function placeOf(pages: DocsPage[], page: DocsPage): [DocsPage[], number] | undefined {
  const index = pages.indexOf(page);
  if (index !== -1) return [pages, index];
  for (const item of pages) {
    const found = item.kind === 'link' ? undefined : placeOf(item.pages, page);
    if (found !== undefined) return found;
  }
  return undefined;
}

function newPage(path: string, title: string): DocsDocument {
  return { path, title, slug: '', markdown: `# ${title}\n`, pages: [] };
}

/** SUMMARY with `line` (1-based) replaced by `lines`. */
function withLines(text: string, line: number, count: number, ...lines: string[]): string {
  const all = text.split('\n');
  all.splice(line - 1, count, ...lines);
  return all.join('\n');
}

describe('the export over git’s folder', () => {
  it('changes nothing when the space holds what git holds: no file written, none deleted', () => {
    expect(exportOver(GIT)).toEqual({ summary: SUMMARY, write: {}, remove: [] });
  });

  it('never touches what the service does not hold: dotfiles, the git host’s README, unlisted pages', () => {
    const exported = exportOver(GIT, (tree) => {
      tree.pages.splice(1); // only the readme is left in the space
    });
    expect(exported.remove.sort()).toEqual([
      'appendix/README.md',
      'getting-started/README.md',
      'getting-started/install.md',
      'getting-started/quick-start.md',
    ]);
    for (const kept of ['.gitignore', 'README.md', 'notes.md', '.gitbook.yaml'])
      expect(Object.keys(exported.write)).not.toContain(kept);
  });

  it('rewrites only the title of a page renamed in the service', () => {
    const exported = exportOver(GIT, (tree) => {
      document(tree, 'getting-started/quick-start.md').title = 'Quick start [new]';
    });
    expect(exported.summary).toBe(
      withLines(SUMMARY, 8, 1, '    - [Quick start \\[new\\]](/getting-started/quick-start.md)'),
    );
    expect(Object.keys(exported.write)).toEqual(['SUMMARY.md']);
  });

  it('keeps the line of a page whose title changed with its heading, when the summary gives none', () => {
    const summary = SUMMARY.replace('[Install]', '[]');
    const git = { ...GIT, 'SUMMARY.md': summary };
    const exported = exportOver(git, (tree) => {
      const install = document(tree, 'getting-started/install.md');
      install.markdown = '# Installing\n';
      install.title = 'Installing';
    });
    expect(exported.summary).toBe(summary);
    expect(exported.write).toEqual({ 'getting-started/install.md': '# Installing\n' });
  });

  it('adds a new page’s line after the entry before it, in the file’s bullet, indent and link style', () => {
    const exported = exportOver(GIT, (tree) => {
      document(tree, 'getting-started/README.md').pages.push(
        newPage('getting-started/upgrade.md', 'Upgrade'),
      );
    });
    expect(exported.summary).toBe(withLines(SUMMARY, 10, 0, '    - [Upgrade](/getting-started/upgrade.md)'));
    expect(exported.write['getting-started/upgrade.md']).toBe('# Upgrade\n');
  });

  it('deletes the line and the file of a page removed in the service', () => {
    const exported = exportOver(GIT, (tree) => {
      const install = document(tree, 'getting-started/install.md');
      const [list, index] = placeOf(tree.pages, install) ?? [[], -1];
      list.splice(index, 1);
    });
    expect(exported.summary).toBe(withLines(SUMMARY, 9, 1));
    expect(exported.remove).toEqual(['getting-started/install.md']);
  });

  it('moves a page’s line when it moves, and keeps the lines read past (a duplicate, a missing file)', () => {
    const exported = exportOver(GIT, (tree) => {
      const install = document(tree, 'getting-started/install.md');
      const [list, index] = placeOf(tree.pages, install) ?? [[], -1];
      list.splice(index, 1);
      document(tree, 'appendix/README.md').pages.push(install);
    });
    expect(exported.summary).toBe(
      `${withLines(SUMMARY, 9, 1).trimEnd()}\n    - [Install](/getting-started/install.md)\n`,
    );
    expect(exported.summary).toContain('    - [Quick start again](/getting-started/quick-start.md)');
    expect(exported.summary).toContain('    - [Old page](old/removed-page.md)');
  });

  it('changes a placeholder’s text, a link’s address and a group’s heading in place', () => {
    const exported = exportOver(GIT, (tree) => {
      const [, more] = tree.pages.filter((page) => page.kind === 'group');
      if (more?.kind !== 'group') throw new Error('no group More');
      more.title = 'More to read';
      const resources = more.pages[0];
      if (resources?.kind !== 'placeholder') throw new Error('no placeholder');
      resources.title = 'Other resources';
      const status = resources.pages[0];
      if (status?.kind !== 'link') throw new Error('no link');
      status.href = 'https://status.example.org';
    });
    expect(exported.summary).toBe(
      withLines(
        SUMMARY,
        11,
        4,
        '## More to read',
        '',
        '- Other resources',
        '    - [Status page](https://status.example.org)',
      ),
    );
  });

  it('adds a new group with its pages at the end, between blank lines', () => {
    const exported = exportOver(GIT, (tree) => {
      tree.pages.push({
        kind: 'group',
        title: 'Reference',
        slug: '',
        pages: [
          newPage('reference/api.md', 'API'),
          { kind: 'link', title: 'Spec', slug: '', href: 'https://x.io/spec' },
        ],
      });
    });
    expect(exported.summary).toBe(
      `${SUMMARY}\n## Reference\n\n- [API](/reference/api.md)\n- [Spec](https://x.io/spec)\n`,
    );
  });

  it('removes a group’s heading with one blank line around it when the space drops the group', () => {
    const exported = exportOver(GIT, (tree) => {
      const more = tree.pages.findIndex((page) => page.kind === 'group' && page.title === 'More');
      tree.pages.splice(more, 1);
    });
    expect(exported.summary).toBe(`${withLines(SUMMARY, 10, 8).trimEnd()}\n`);
    expect(exported.remove).toEqual(['appendix/README.md']);
  });

  it('writes new lines with the file’s CRLF line ends', () => {
    const crlf = SUMMARY.replaceAll('\n', '\r\n');
    const exported = exportOver({ ...GIT, 'SUMMARY.md': crlf }, (tree) => {
      document(tree, 'getting-started/README.md').pages.push(
        newPage('getting-started/upgrade.md', 'Upgrade'),
      );
    });
    expect(exported.summary).toBe(
      withLines(SUMMARY, 10, 0, '    - [Upgrade](/getting-started/upgrade.md)').replaceAll('\n', '\r\n'),
    );
  });

  it('writes the summary anew in its own style, title kept, when a line edit cannot say it', () => {
    // A top-level page after a group needs a `---` line: more than an edit of lines.
    const exported = exportOver(GIT, (tree) => {
      tree.pages.push(newPage('faq.md', 'FAQ'));
    });
    expect(exported.summary).toBe(
      [
        '# Table of contents',
        '',
        '- [Introduction](/INTRODUCTION.md)',
        '',
        ...GROUPS,
        '- [Appendix](/appendix/README.md)',
        '',
        '---',
        '',
        '- [FAQ](/faq.md)',
        '',
      ].join('\n'),
    );
    const back = folderToTree(
      new Map([
        ...Object.entries(GIT).map(([path, text]): [string, Buffer] => [path, Buffer.from(text)]),
        ['faq.md', Buffer.from('# FAQ\n')],
        ['SUMMARY.md', Buffer.from(exported.summary ?? '')],
      ]),
      { readme: 'INTRODUCTION.md' },
    );
    expect(back.pages.at(-1)).toMatchObject({ path: 'faq.md', title: 'FAQ' });
  });

  it('appends a new top-level page of a summary without groups after the last entry', () => {
    const summary = '# Summary\n\n* [Introduction](INTRODUCTION.md)\n* [Notes](notes.md)\n\n<!-- end -->\n';
    const exported = exportOver({ ...GIT, 'SUMMARY.md': summary }, (tree) => {
      tree.pages.push(newPage('faq.md', 'FAQ'));
    });
    expect(exported.summary).toBe(
      '# Summary\n\n* [Introduction](INTRODUCTION.md)\n* [Notes](notes.md)\n* [FAQ](faq.md)\n\n<!-- end -->\n',
    );
  });

  it('under unlisted: append, leaves pages the summary does not list unlisted while they stay in place', () => {
    const exported = exportOver(
      GIT,
      (tree) => {
        document(tree, 'notes.md').markdown = '# Notes, not listed\n\nEdited.\n';
      },
      'append',
    );
    expect(exported.summary).toBe(SUMMARY);
    expect(exported.write).toEqual({ 'notes.md': '# Notes, not listed\n\nEdited.\n' });
  });

  it('keeps a configured summary’s name and leaves a SUMMARY.md beside it alone', () => {
    const git = {
      ...GIT,
      '.gitbook.yaml': 'structure:\n  readme: INTRODUCTION.md\n  summary: TOC.md\n',
      'TOC.md': SUMMARY,
      'SUMMARY.md': '# Not the summary\n',
    };
    const exported = exportOver(git, (tree) => {
      document(tree, 'getting-started/install.md').title = 'Installing';
    });
    expect(Object.keys(exported.write)).toEqual(['TOC.md']);
    expect(exported.write['TOC.md']).toBe(SUMMARY.replace('[Install]', '[Installing]'));
    expect(exported.remove).toEqual([]);
  });

  it('creates the readme and summary `.gitbook.yaml` names when git has neither yet', () => {
    const git = { '.gitbook.yaml': 'structure:\n  readme: INTRODUCTION.md\n  summary: TOC.md\n' };
    const exported = exportOver(git, (tree) => {
      // A space made in the service, exported to a repository set up for it.
      tree.pages.splice(0, tree.pages.length, newPage('INTRODUCTION.md', 'Introduction'), {
        kind: 'group',
        title: 'Guides',
        slug: '',
        pages: [newPage('a.md', 'A')],
      });
    });
    expect(exported.write).toEqual({
      'INTRODUCTION.md': '# Introduction\n',
      'a.md': '# A\n',
      'TOC.md': '# Summary\n\n* [Introduction](INTRODUCTION.md)\n\n## Guides\n\n* [A](a.md)\n',
    });
  });

  it('without a summary in git, writes one only when the files alone would read back otherwise', () => {
    const git: Record<string, string> = { 'README.md': '# Home\n', 'b.md': '# B\n', 'a.md': '# A\n' };
    expect(exportOver(git)).toEqual({ summary: undefined, write: {}, remove: [] });
    const grouped = exportOver(git, (tree) => {
      const [home, a, b] = tree.pages;
      if (home === undefined || a === undefined || b === undefined) throw new Error('three pages expected');
      tree.pages.splice(0, 3, home, { kind: 'group', title: 'Pages', slug: '', pages: [b, a] });
    });
    expect(grouped.summary).toBe(
      '# Summary\n\n* [Home](README.md)\n\n## Pages\n\n* [B](b.md)\n* [A](a.md)\n',
    );
  });

  it('keeps every document of the tree readable: no page lost between the tree and the folder', () => {
    const exported = exportOver(GIT, (tree) => {
      for (const page of allDocuments(tree.pages)) if (isDocument(page)) page.markdown += '\nMore.\n';
    });
    expect(Object.keys(exported.write).sort()).toEqual([
      'INTRODUCTION.md',
      'appendix/README.md',
      'getting-started/README.md',
      'getting-started/install.md',
      'getting-started/quick-start.md',
    ]);
    expect(exported.summary).toBe(SUMMARY);
  });
});
