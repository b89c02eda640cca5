// A docs folder of tens of thousands of files for the scale tests, committed with `git fast-import`
// (writing 50,000 files to a working tree and `git add` would take longer than the test itself):
// a bare remote whose `main` holds `docs/README.md`, then `docs/section-NNN/README.md` and its pages,
// no SUMMARY.md (every markdown file is a page), and one image per section. Pages are about 200
// bytes and images a few unless sizes are asked for: the scale benchmark's real-sized row writes
// pages and images of the sizes docs people write (with text outside Latin-1, as real docs have).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface LargeDocsRepo {
  remote: string;
  /** Files under docs/, pages and images. */
  files: number;
  /** Path under docs/ to content, for a few files tests look at again. */
  samples: Map<string, string>;
}

const PAGES_PER_SECTION = 99;

/** How large the pages and images are: small ones (about 200 bytes, and a few) when not given. */
export interface LargeDocsSizes {
  pageBytes?: number;
  imageBytes?: number;
}

const PARAGRAPH =
  'Docs as people write them run to a few kilobytes a page: steps, notes and the odd “quoted” word, ' +
  'with a link to [the section](README.md) now and then.\n\n';

/** The page at `index` of `section`: about 200 bytes, or about `bytes`, in paragraphs. */
export function pageText(section: number, index: number, bytes = 0): string {
  const head = `# Page ${section}.${index}\n\nWritten in git for the scale test: section ${section}, page ${index}. See [the section](README.md).\n`;
  const paragraphs = Math.max(0, Math.ceil((bytes - head.length) / Buffer.byteLength(PARAGRAPH)));
  return paragraphs === 0 ? head : `${head}\n${PARAGRAPH.repeat(paragraphs)}`;
}

/** `bytes` bytes that do not compress, the same for the same section. */
function imageBytes(section: number, bytes: number): Buffer {
  const data = Buffer.alloc(bytes);
  let state = section * 2654435761 || 1;
  for (let i = 0; i < bytes; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    data[i] = state & 0xff;
  }
  return data;
}

/**
 * `files` files in all, in a bare repository made in `dir`: sections of one README, 99 pages and
 * one image each, the root README first. Free of the test runner: the scale benchmark uses it too.
 */
export async function createLargeDocsRepo(
  files: number,
  dir: string,
  sizes: LargeDocsSizes = {},
): Promise<LargeDocsRepo> {
  const remote = join(dir, 'remote.git');
  await git(['init', '--quiet', '--bare', '--initial-branch=main', remote]);
  const child = spawn('git', ['--git-dir', remote, 'fast-import', '--quiet'], {
    stdio: ['pipe', 'ignore', 'pipe'],
    // glibc grows and trims fast-import's heap by a few KiB per blob; where brk is slow (some VMs)
    // 50,000 blobs took minutes instead of about two seconds.
    env: { ...process.env, MALLOC_TOP_PAD_: String(64 << 20), MALLOC_TRIM_THRESHOLD_: String(128 << 20) },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  const pending: Buffer[] = [];
  const flush = async (): Promise<void> => {
    if (!child.stdin.write(Buffer.concat(pending)))
      await new Promise((resolve) => child.stdin.once('drain', resolve));
    pending.length = 0;
  };
  const add = async (path: string, data: string | Buffer): Promise<void> => {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    pending.push(
      Buffer.from(`M 100644 inline docs/${path}\ndata ${bytes.length}\n`),
      bytes,
      Buffer.from('\n'),
    );
    if (pending.length >= 1500) await flush();
  };
  pending.push(
    Buffer.from(
      'commit refs/heads/main\ncommitter Ada <ada@example.com> 1700000000 +0000\ndata 10\nLarge docs\n',
    ),
  );
  const samples = new Map<string, string>();
  const keep = (path: string, data: string) => {
    if (samples.size < 50 || path.endsWith('page-099.md')) samples.set(path, data);
  };
  let written = 0;
  const root = '# Large docs\n\nThe first page.\n';
  await add('README.md', root);
  keep('README.md', root);
  written += 1;
  for (let section = 1; written < files; section += 1) {
    const folder = `section-${String(section).padStart(3, '0')}`;
    // The image first, so that the README linking it never lacks it in the last section.
    const image = files - written >= 2;
    if (image) {
      // Not text: an image's bytes, one per section.
      await add(
        `${folder}/diagram.png`,
        sizes.imageBytes === undefined ? `PNG section ${section}` : imageBytes(section, sizes.imageBytes),
      );
      written += 1;
    }
    const readme = `# Section ${section}\n${image ? '\n![diagram](diagram.png)\n' : ''}`;
    await add(`${folder}/README.md`, readme);
    keep(`${folder}/README.md`, readme);
    written += 1;
    for (let index = 1; index <= PAGES_PER_SECTION && written < files; index += 1) {
      const path = `${folder}/page-${String(index).padStart(3, '0')}.md`;
      const text = pageText(section, index, sizes.pageBytes);
      await add(path, text);
      keep(path, text);
      written += 1;
    }
  }
  await flush();
  child.stdin.end();
  if ((await closed) !== 0) throw new Error(`git fast-import failed: ${stderr}`);
  return { remote, files: written, samples };
}

function git(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`git ${args[0]} exited ${code}`)),
    );
  });
}
