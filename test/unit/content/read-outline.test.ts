import { describe, expect, it } from 'vitest';
import type { ContentWarning } from '../../../src/content/content-warning.js';
import type { OutlineEntry, OutlineOptions } from '../../../src/content/docs-outline.js';
import { readOutline } from '../../../src/content/read-outline.js';

/** An entry as a compact line: `a.md "A" @3`, `group "G" @5`, `link https://x "X" @7`, `placeholder "P" @9`. */
type Shape = string | [string, Shape[]];

function shape(entries: readonly OutlineEntry[]): Shape[] {
  return entries.map((entry) => {
    const at = entry.line === undefined ? '' : ` @${entry.line}`;
    const head =
      entry.kind === 'document'
        ? `${entry.path} "${entry.title}"${at}`
        : entry.kind === 'link'
          ? `link ${entry.href} "${entry.title}"${at}`
          : `${entry.kind} "${entry.title}"${at}`;
    const children = entry.kind === 'link' ? [] : entry.pages;
    return children.length === 0 ? head : [head, shape(children)];
  });
}

/** Warnings as `CODE file:line`, the message checked where it matters. */
function where(warnings: readonly ContentWarning[]): string[] {
  return warnings.map((warning) =>
    warning.line === undefined
      ? `${warning.code} ${warning.file}`
      : `${warning.code} ${warning.file}:${warning.line}`,
  );
}

const FILES = [
  'README.md',
  'SUMMARY.md',
  'a.md',
  'b.md',
  'c.md',
  'guides/README.md',
  'guides/install.md',
  'contents/9/README.md',
  'empty/image.png',
  'logo.png',
];

function read(summary: string[] | undefined, options: OutlineOptions = {}, files: string[] = FILES) {
  return readOutline(files, summary?.join('\n'), options);
}

describe('readOutline without a summary', () => {
  it('makes every markdown file a page: the readme first, the others under the nearest folder readme', () => {
    const outline = read(undefined);
    expect(shape(outline.pages)).toEqual([
      'README.md ""',
      'a.md ""',
      'b.md ""',
      'c.md ""',
      'contents/9/README.md ""',
      ['guides/README.md ""', ['guides/install.md ""']],
    ]);
    expect(outline.warnings).toEqual([]);
  });
});

describe('readOutline with a summary', () => {
  it('reads a plain list: order, nesting and titles, each entry with its line', () => {
    const outline = read(
      ['# Summary', '', '* [Home](README.md)', '* [A](a.md)', '  * [B](b.md)', '* [C](c.md)'],
      {
        unlisted: 'append',
      },
    );
    expect(shape(outline.pages)).toEqual([
      'README.md "Home" @3',
      ['a.md "A" @4', ['b.md "B" @5']],
      'c.md "C" @6',
      'contents/9/README.md ""',
      ['guides/README.md ""', ['guides/install.md ""']],
    ]);
    expect(outline.warnings).toEqual([]);
  });

  it('keeps the first place of a page listed twice; the later entry’s children take its place', () => {
    const outline = read([
      '* [Home](README.md)',
      '* [A](a.md)',
      '* [A again](./a.md)',
      '  * [B](b.md)',
      '* [C](c.md)',
    ]);
    expect(shape(outline.pages)).toEqual([
      'README.md "Home" @1',
      'a.md "A" @2',
      'b.md "B" @4',
      'c.md "C" @5',
    ]);
    expect(where(outline.warnings).slice(0, 1)).toEqual(['SUMMARY_DUPLICATE SUMMARY.md:3']);
    expect(outline.warnings[0]?.message).toBe(
      'a.md is already listed on line 2, and a page has one place: the entry is read past and the entries under it take its place; list each page once',
    );
  });

  it('makes an entry without a link a placeholder holding its children, with no warning', () => {
    const outline = read(['* [Home](README.md)', '- Overview', '  - [A](a.md)', '* [Intro]()']);
    expect(shape(outline.pages)).toEqual([
      'README.md "Home" @1',
      ['placeholder "Overview" @2', ['a.md "A" @3']],
      'placeholder "Intro" @4',
    ]);
    expect(where(outline.warnings).filter((warning) => !warning.startsWith('PAGE_UNLISTED'))).toEqual([]);
  });

  it('makes an external entry a link page; entries under it follow it, with a warning', () => {
    const outline = read([
      '* [Home](README.md)',
      '* [Status](https://status.example.com)',
      '  * [A](a.md)',
      '* [Write to us](mailto:docs@example.com)',
    ]);
    expect(shape(outline.pages)).toEqual([
      'README.md "Home" @1',
      'link https://status.example.com "Status" @2',
      'a.md "A" @3',
      'link mailto:docs@example.com "Write to us" @4',
    ]);
    expect(where(outline.warnings).slice(0, 1)).toEqual(['SUMMARY_ENTRY_UNCLEAR SUMMARY.md:2']);
  });

  it('groups the top-level entries under a ## heading until the next heading or ---', () => {
    const outline = read([
      '# Summary',
      '* [Home](README.md)',
      '## Basics',
      '* [A](a.md)',
      '  * [B](b.md)',
      '---',
      '* [C](c.md)',
      '### Deeper heading, still a group',
      '* [Install](guides/install.md)',
      '# Another title',
      '* [Guides](guides/README.md)',
      '##',
    ]);
    expect(shape(outline.pages)).toEqual([
      'README.md "Home" @2',
      ['group "Basics" @3', [['a.md "A" @4', ['b.md "B" @5']]]],
      'c.md "C" @7',
      ['group "Deeper heading, still a group" @8', ['guides/install.md "Install" @9']],
      'guides/README.md "Guides" @11',
    ]);
    expect(where(outline.warnings)).toEqual([
      'SUMMARY_ENTRY_UNCLEAR SUMMARY.md:12',
      'PAGE_UNLISTED contents/9/README.md',
    ]);
  });

  it('takes a readme listed first inside the first group as the first page', () => {
    const outline = read(['## Start', '* [Welcome](README.md)', '* [A](a.md)']);
    expect(shape(outline.pages)).toEqual([['group "Start" @1', ['README.md "Welcome" @2', 'a.md "A" @3']]]);
    expect(where(outline.warnings).filter((warning) => warning.startsWith('SUMMARY'))).toEqual([]);
  });

  it('reads a link to a folder as its readme, the configured readme name first', () => {
    const outline = read(
      [
        '* [Home](/)',
        '* [Guides](guides/)',
        '* [Nine](/contents/9/)',
        '* [Also guides](guides)',
        '* [Empty](empty/)',
      ],
      {},
    );
    expect(shape(outline.pages)).toEqual([
      'README.md "Home" @1',
      'guides/README.md "Guides" @2',
      'contents/9/README.md "Nine" @3',
    ]);
    expect(where(outline.warnings)).toEqual([
      'SUMMARY_DUPLICATE SUMMARY.md:4',
      'SUMMARY_FOLDER_LINK SUMMARY.md:5',
      'PAGE_UNLISTED a.md',
      'PAGE_UNLISTED b.md',
      'PAGE_UNLISTED c.md',
      'PAGE_UNLISTED guides/install.md',
    ]);
    expect(outline.warnings[1]?.message).toBe(
      'empty/ is a folder with no README.md of its own: the entry is read past and the entries under it take its place; link a page of the folder, or add empty/README.md',
    );

    const intro = readOutline(
      ['INTRODUCTION.md', 'README.md', 'guides/INTRODUCTION.md', 'guides/README.md'],
      '* [Home](./)\n* [Guides](guides/)\n',
      { readme: 'INTRODUCTION.md' },
    );
    expect(shape(intro.pages)).toEqual(['INTRODUCTION.md "Home" @1', 'guides/INTRODUCTION.md "Guides" @2']);
    expect(where(intro.warnings)).toEqual(['PAGE_UNLISTED README.md', 'PAGE_UNLISTED guides/README.md']);
  });

  it('reads past an entry whose file is missing or not markdown; its children take its place', () => {
    const outline = read([
      '* [Home](README.md)',
      '* [Gone](gone.md)',
      '  * [A](a.md)',
      '* [Logo](logo.png)',
      '* [Cased](A.md)',
      '* [No extension](b)',
      '* [Summary](SUMMARY.md)',
      '* [Missing folder](nowhere/)',
    ]);
    expect(shape(outline.pages)).toEqual(['README.md "Home" @1', 'a.md "A" @3']);
    expect(where(outline.warnings)).toEqual([
      'SUMMARY_MISSING_FILE SUMMARY.md:2',
      'SUMMARY_MISSING_FILE SUMMARY.md:4',
      'SUMMARY_MISSING_FILE SUMMARY.md:5',
      'SUMMARY_MISSING_FILE SUMMARY.md:6',
      'SUMMARY_MISSING_FILE SUMMARY.md:7',
      'SUMMARY_MISSING_FILE SUMMARY.md:8',
      'PAGE_UNLISTED b.md',
      'PAGE_UNLISTED c.md',
      'PAGE_UNLISTED contents/9/README.md',
      'PAGE_UNLISTED guides/README.md',
      'PAGE_UNLISTED guides/install.md',
    ]);
    expect(outline.warnings.slice(0, 6).map((warning) => warning.message.split(':')[0])).toEqual([
      'gone.md is not in the docs folder',
      'logo.png is not a markdown page',
      'A.md is not in the docs folder',
      'b is not in the docs folder',
      'SUMMARY.md is the summary itself',
      'nowhere/ is not in the docs folder',
    ]);
    expect(outline.warnings[2]?.message).toMatch(/did you mean a\.md\?$/);
    expect(outline.warnings[3]?.message).toMatch(/did you mean b\.md\?$/);
  });

  it('keeps the readme first when the summary lists it elsewhere', () => {
    const outline = read(['* [A](a.md)', '  * [Home](README.md)', '    * [B](b.md)']);
    expect(shape(outline.pages)).toEqual(['README.md ""', ['a.md "A" @1', ['b.md "B" @3']]]);
    expect(where(outline.warnings).slice(0, 1)).toEqual(['SUMMARY_ENTRY_UNCLEAR SUMMARY.md:2']);
    expect(outline.warnings[0]?.message).toBe(
      'README.md is the first page and can only be the first entry: it stays first, and the entry is read past and the entries under it take its place; move it to the top',
    );
  });

  it('takes the first link of an entry with text after it or more links', () => {
    const outline = read(['* [Home](README.md)', '* [A](a.md) (beta)', '* [B](b.md) and [C](c.md)']);
    expect(shape(outline.pages)).toEqual(['README.md "Home" @1', 'a.md "A" @2', 'b.md "B" @3']);
    expect(where(outline.warnings).slice(0, 2)).toEqual([
      'SUMMARY_ENTRY_UNCLEAR SUMMARY.md:2',
      'SUMMARY_ENTRY_UNCLEAR SUMMARY.md:3',
    ]);
    expect(outline.warnings[1]?.message).toBe(
      'the entry has more than one link: only its first link is read; keep one link per entry',
    );
  });

  it('reads past a link leaving the docs root as a missing file', () => {
    const outline = read(['* [Home](README.md)', '* [Up](../outside.md)', '  * [A](a.md)']);
    expect(shape(outline.pages)).toEqual(['README.md "Home" @1', 'a.md "A" @3']);
    expect(outline.warnings[0]).toEqual({
      code: 'SUMMARY_MISSING_FILE',
      file: 'SUMMARY.md',
      line: 2,
      message:
        'link ../outside.md leaves the docs folder: the entry is read past and the entries under it take its place; link a page inside the docs folder',
    });
  });

  it('names the summary by its configured path, and resolves its links from its folder', () => {
    const outline = readOutline(['README.md', 'docs/TOC.md', 'docs/a.md'], '* [A](a.md)\n* [X](x.md)\n', {
      summary: 'docs/TOC.md',
    });
    expect(shape(outline.pages)).toEqual(['README.md ""', 'docs/a.md "A" @1']);
    expect(where(outline.warnings)).toEqual(['SUMMARY_MISSING_FILE docs/TOC.md:2']);
  });

  it('warns of an anchor-only link, a link outside the list and an empty entry', () => {
    const outline = read(['* [Home](README.md)', '* [Top](#top)', '[A](a.md)', '*', '  * [B](b.md)']);
    expect(shape(outline.pages)).toEqual(['README.md "Home" @1', 'placeholder "Top" @2', 'b.md "B" @5']);
    expect(where(outline.warnings).slice(0, 3)).toEqual([
      'SUMMARY_ENTRY_UNCLEAR SUMMARY.md:2',
      'SUMMARY_ENTRY_UNCLEAR SUMMARY.md:3',
      'SUMMARY_ENTRY_UNCLEAR SUMMARY.md:4',
    ]);
  });
});

describe('readOutline with pages the summary does not list', () => {
  const summary = ['* [Home](README.md)', '* [Guides](guides/README.md)', '## More', '* [A](a.md)'];

  it('leaves them out by default, the service’s rule, with one PAGE_UNLISTED warning each', () => {
    const outline = read(summary);
    expect(shape(outline.pages)).toEqual([
      'README.md "Home" @1',
      'guides/README.md "Guides" @2',
      ['group "More" @3', ['a.md "A" @4']],
    ]);
    expect(outline.warnings).toEqual(
      ['b.md', 'c.md', 'contents/9/README.md', 'guides/install.md'].map((file) => ({
        code: 'PAGE_UNLISTED',
        file,
        message: `${file} is not listed in SUMMARY.md, so it is not a page (the service reads only listed pages); list it to publish it`,
      })),
    );
  });

  it('appends them with unlisted: append, under the nearest folder readme, without warnings', () => {
    const outline = read(summary, { unlisted: 'append' });
    expect(shape(outline.pages)).toEqual([
      'README.md "Home" @1',
      ['guides/README.md "Guides" @2', ['guides/install.md ""']],
      ['group "More" @3', ['a.md "A" @4']],
      'b.md ""',
      'c.md ""',
      'contents/9/README.md ""',
    ]);
    expect(outline.warnings).toEqual([]);
  });

  it('puts an unlisted readme first in both cases', () => {
    expect(shape(read(['* [A](a.md)']).pages)).toEqual(['README.md ""', 'a.md "A" @1']);
  });
});

describe('readOutline with paths that differ only in letter case', () => {
  it('warns once per pair, after the summary’s warnings', () => {
    const outline = readOutline(
      ['README.md', 'Info.png', 'info.png', 'img/Logo.svg', 'img/logo.svg'],
      undefined,
    );
    expect(where(outline.warnings)).toEqual(['PATH_CASE_CLASH Info.png', 'PATH_CASE_CLASH img/Logo.svg']);
    expect(outline.warnings[0]?.message).toBe(
      'Info.png and info.png differ only in letter case: both are kept, but a checkout on macOS or Windows holds only one of them; rename one',
    );
  });
});
