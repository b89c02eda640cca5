import { describe, expect, it } from 'vitest';
import type { ImportLimits } from '../../../src/api/schemas/service-import-limits.js';
import { formatBytes, parseByteSize } from '../../../src/config/byte-size.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { BundleTooLargeError } from '../../../src/content/bundle-too-large-error.js';
import { checkBundleLimits, type SizedFile } from '../../../src/content/check-bundle-limits.js';
import { withLinksToLeftOut } from '../../../src/content/links-to-left-out.js';
import { configSize, roundDownReadable } from '../../../src/content/readable-size.js';

const KIB = 1024;
const MIB = 1024 * KIB;

/** The error checkBundleLimits throws for `files`, with the links of `pages` counted when given. */
async function refusal(
  files: readonly SizedFile[],
  limits: ImportLimits,
  pages: Record<string, string> = {},
  skipFilesOver?: number,
): Promise<BundleTooLargeError> {
  let thrown: unknown;
  try {
    checkBundleLimits(files, limits, skipFilesOver);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(BundleTooLargeError);
  const read = async function* (paths: readonly string[]) {
    for (const path of paths) yield Buffer.from(pages[path] ?? '', 'utf8');
  };
  const sources = new Map(files.map((file) => [file.path, file.path]));
  const counted = await withLinksToLeftOut(thrown, sources, read);
  return counted as BundleTooLargeError;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The bytes of the files a threshold keeps. */
function keptBytes(files: readonly SizedFile[], threshold: number): number {
  return files.reduce((sum, file) => sum + (file.size > threshold ? 0 : file.size), 0);
}

/** The config line the message says to add, read by docsync's own config parser. */
function parsedSetting(message: string): number | undefined {
  const line = /\(import: \{ skipFilesOver: ([^ ]+) \}\)/.exec(message)?.[0].slice(1, -1);
  expect(line).toBeDefined();
  const config = parseConfig(
    `service: { baseUrl: "https://docs.example.com/v1", token: t }
mappings:
  - name: docs
    space: space_1
    git: { repo: ./repo, branch: main }
    ${line}
`,
    'docsync.yaml',
    {},
  );
  return config.mappings[0]?.import.skipFilesOver;
}

/**
 * A docs root of 15 MiB (1.5 times a 10 MiB limit): 12 pages and 240 images of many sizes, from a
 * few KiB to a few MiB, one with a space in its name. Deterministic.
 */
function overFolder(): SizedFile[] {
  const pages = [
    { path: 'README.md', size: 3 * KIB },
    { path: 'SUMMARY.md', size: 2 * KIB },
    { path: 'guides/setup.md', size: 9 * KIB },
    ...Array.from({ length: 9 }, (_, index) => ({
      path: `guides/page-${index}.md`,
      size: (index + 4) * KIB,
    })),
  ];
  const images: SizedFile[] = [{ path: 'img/big shot.png', size: 1900 * KIB }];
  let seed = 7;
  for (let index = 0; index < 239; index += 1) {
    seed = (seed * 48271) % 2147483647;
    // Log-spread sizes: most small, a few large.
    const size = Math.round(2 * KIB * 2 ** ((seed % 1000) / 140));
    images.push({ path: `img/${String(index).padStart(3, '0')}.png`, size });
  }
  const files = [...pages, ...images];
  const total = files.reduce((sum, file) => sum + file.size, 0);
  // The last image makes it exactly 15 MiB.
  const last = images.at(-1);
  if (last === undefined) throw new Error('no images');
  last.size += 15 * MIB - total;
  expect(last.size).toBeGreaterThan(0);
  return files;
}

describe('checkBundleLimits', () => {
  const limits = { maxBytes: 10 * MIB, maxFileBytes: 5 * MIB, maxFiles: 1000 };

  it('proposes the largest round skipFilesOver that fits, lists what it leaves out and the links that would break', async () => {
    const files = overFolder();
    const largest = [...files].sort((a, b) => b.size - a.size);
    // Named as written in links: the largest images but the one with a space in its name.
    const [first, second, third] = largest
      .filter((file) => file.path.startsWith('img/') && !file.path.includes(' '))
      .map((file) => file.path.slice('img/'.length));
    const error = await refusal(files, limits, {
      'README.md': [
        '# Start',
        `![The largest](img/${first})`,
        '![Shot](img/big%20shot.png) and [again][shot]',
        '',
        `<img src="./img/${second}" alt="second">`,
        '![Small](img/000.png) [Site](https://example.com)',
        '```',
        `![In code](img/${first})`,
        '```',
        '',
        '[shot]: <img/big shot.png>',
      ].join('\n'),
      'guides/setup.md': `# Setup\n\n[Download](../img/${third})\n`,
      'guides/page-0.md': '# Nothing linked\n\n[Setup](setup.md)\n',
    });
    const { proposal } = error.tooLarge;
    if (proposal.kind !== 'skip') throw new Error(`expected a proposal, got ${proposal.kind}`);
    const { threshold } = proposal;

    // It fits; the next round size up does not, and no threshold leaves out fewer files.
    expect(keptBytes(files, threshold)).toBeLessThanOrEqual(limits.maxBytes);
    // Rounded to 16 KiB below 1 MiB, or to whole KiB when no multiple of 16 KiB leaves out the same files.
    const step = [16 * KIB, KIB, 1].find((size) => threshold % size === 0) ?? 1;
    expect(threshold).toBeLessThan(MIB);
    expect(keptBytes(files, threshold + step)).toBeGreaterThan(limits.maxBytes);
    const leftOut = files.filter((file) => file.size > threshold);
    const smallestLeftOut = Math.min(...leftOut.map((file) => file.size));
    expect(keptBytes(files, smallestLeftOut)).toBeGreaterThan(limits.maxBytes);
    expect(leftOut.some((file) => file.path.endsWith('.md'))).toBe(false);
    expect(proposal.leftOut.map((file) => file.path)).toEqual(
      largest.slice(0, leftOut.length).map((f) => f.path),
    );

    // The message: what was wrong, the line to add (as docsync's config reads it), what it leaves
    // out (the ten largest, then a count), and the links on the pages to those files.
    expect(parsedSetting(error.message)).toBe(threshold);
    const value = configSize(threshold);
    const shown = largest
      .slice(0, 10)
      .map((file) => `${file.path} (${formatBytes(file.size)})`)
      .join(', ');
    expect(error.message).toMatch(
      new RegExp(
        `^the docs root has 15 MiB in 252 files to import, over the limit of 10 MiB per import\\. ` +
          `Set import\\.skipFilesOver of the mapping \\(import: \\{ skipFilesOver: ${value.replace('.', '\\.')} \\}\\), ` +
          `the largest size that makes the rest fit: it leaves out ${leftOut.length} files, each listed as a warning and kept in git: ` +
          `${escaped(shown)} and ${leftOut.length - 10} more; 5 links on 2 pages point to them and would break\\. ` +
          'Or move large files out of the docs root$',
      ),
    );
    expect(error).toMatchObject({ code: 'ARCHIVE_TOO_LARGE', path: 'img/big shot.png' });
  });

  it('proposes a lower setting than the one set, and says when no page links to what it leaves out', async () => {
    const files = [
      { path: 'README.md', size: 1 * KIB },
      { path: 'a.pdf', size: 700 * KIB },
      { path: 'b.pdf', size: 500 * KIB },
      { path: 'c.pdf', size: 200 * KIB },
    ];
    const error = await refusal(
      files,
      { ...limits, maxBytes: 512 * KIB },
      { 'README.md': '[C](c.pdf)' },
      2 * MIB,
    );
    // Any size from 200 KiB to just under 500 KiB leaves out a.pdf and b.pdf: 496 KiB is the roundest of the largest.
    expect(error.message).toBe(
      'the docs root has 1.4 MiB in 4 files to import, over the limit of 512 KiB per import. ' +
        'Lower import.skipFilesOver of the mapping from 2 MiB to 496KiB (import: { skipFilesOver: 496KiB }), ' +
        'the largest size that makes the rest fit: it leaves out 2 files, each listed as a warning and kept in git: ' +
        'a.pdf (700 KiB), b.pdf (500 KiB); no page links to them. Or move large files out of the docs root',
    );
    expect(parsedSetting(error.message)).toBe(496 * KIB);
  });

  it('proposes no setting when every threshold that fits would leave out a page', async () => {
    const files = [
      { path: 'README.md', size: 300 * KIB },
      { path: 'a.png', size: 400 * KIB },
      { path: 'b.png', size: 250 * KIB },
      { path: 'c.png', size: 250 * KIB },
      { path: 'd.png', size: 200 * KIB },
    ];
    const error = await refusal(files, { ...limits, maxBytes: 512 * KIB });
    expect(error.tooLarge.proposal.kind).toBe('pages-in-the-way');
    expect(error.message).toBe(
      'the docs root has 1.4 MiB in 5 files to import, over the limit of 512 KiB per import; the largest files: ' +
        'a.png (400 KiB), README.md (300 KiB), b.png (250 KiB), c.png (250 KiB), d.png (200 KiB). ' +
        'No import.skipFilesOver setting makes the folder fit without leaving out pages: with every file larger than ' +
        'the largest page, README.md (300 KiB), left out, the rest still holds 1000 KiB, over the limit of 512 KiB per import. ' +
        'Move files of 300 KiB or less out of the docs root, or split the docs root into folders with their own ' +
        '.gitbook.yaml, each imported on its own',
    );
  });

  it('proposes no setting when a page alone is over the per-file limit', async () => {
    const files = [
      { path: 'README.md', size: KIB },
      { path: 'api/reference.md', size: 6 * MIB },
      { path: 'video.mp4', size: 8 * MIB },
    ];
    const error = await refusal(files, limits);
    expect(error.message).toBe(
      '2 files are over the limit of 5 MiB per file: video.mp4 (8 MiB), api/reference.md (6 MiB); ' +
        'the docs root has 14 MiB in 3 files to import, over the limit of 10 MiB per import; the largest files: ' +
        'video.mp4 (8 MiB), api/reference.md (6 MiB), README.md (1 KiB). ' +
        'No import.skipFilesOver setting makes the folder fit without leaving out pages: a page is over the limit of ' +
        '5 MiB per file, so leaving out every other file would not be enough. Make the pages smaller, or split the ' +
        'docs root into folders with their own .gitbook.yaml, each imported on its own',
    );
  });
});

describe('roundDownReadable', () => {
  it('takes the roundest of the largest sizes in the range, finer steps only when no round one is in it', () => {
    expect(roundDownReadable(300 * KIB, 460 * KIB)).toBe(448 * KIB);
    expect(roundDownReadable(MIB, 1.6 * MIB)).toBe(1.5 * MIB);
    expect(roundDownReadable(MIB, 22 * MIB + 5)).toBe(22 * MIB);
    expect(roundDownReadable(2 * 1024 * MIB, 1.3 * 1024 * MIB * 2)).toBe(2.5 * 1024 * MIB);
    // No multiple of 16 KiB between 449 and 455 KiB: whole KiB.
    expect(roundDownReadable(449 * KIB, 455 * KIB + 100)).toBe(455 * KIB);
    expect(roundDownReadable(1000, 1010)).toBe(1010);
    expect(roundDownReadable(0, 0)).toBeUndefined();
  });

  it('writes each as the config reads it back', () => {
    for (const bytes of [
      448 * KIB,
      1.5 * MIB,
      1.25 * MIB,
      12.75 * MIB,
      20 * MIB,
      1296 * KIB,
      2.5 * 1024 * MIB,
      1010,
    ]) {
      expect(parseByteSize(configSize(bytes))).toBe(bytes);
    }
    expect([448 * KIB, 1.5 * MIB, 1.25 * MIB, 1010].map(configSize)).toEqual([
      '448KiB',
      '1.5MiB',
      '1.25MiB',
      '1010',
    ]);
  });
});
