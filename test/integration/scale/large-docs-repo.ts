// A docs folder of tens of thousands of files for the scale tests, committed with `git fast-import`
// (writing 50,000 files to a working tree and `git add` would take longer than the test itself):
// a bare remote whose `main` holds `docs/README.md`, then `docs/section-NNN/README.md` and its pages,
// no SUMMARY.md (every markdown file is a page), and one image per section.
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

/** The page at `index` of `section`, about 200 bytes. */
export function pageText(section: number, index: number): string {
  return `# Page ${section}.${index}\n\nWritten in git for the scale test: section ${section}, page ${index}. See [the section](README.md).\n`;
}

/**
 * `files` files in all, in a bare repository made in `dir`: sections of one README, 99 pages and
 * one image each, the root README first. Free of the test runner: the scale benchmark uses it too.
 */
export async function createLargeDocsRepo(files: number, dir: string): Promise<LargeDocsRepo> {
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
  const pending: string[] = [];
  const flush = async (): Promise<void> => {
    if (!child.stdin.write(pending.join('')))
      await new Promise((resolve) => child.stdin.once('drain', resolve));
    pending.length = 0;
  };
  const add = async (path: string, data: string): Promise<void> => {
    pending.push(`M 100644 inline docs/${path}\ndata ${Buffer.byteLength(data)}\n${data}\n`);
    if (pending.length >= 500) await flush();
  };
  pending.push(
    'commit refs/heads/main\ncommitter Ada <ada@example.com> 1700000000 +0000\ndata 10\nLarge docs\n',
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
      await add(`${folder}/diagram.png`, `PNG section ${section}`);
      written += 1;
    }
    const readme = `# Section ${section}\n${image ? '\n![diagram](diagram.png)\n' : ''}`;
    await add(`${folder}/README.md`, readme);
    keep(`${folder}/README.md`, readme);
    written += 1;
    for (let index = 1; index <= PAGES_PER_SECTION && written < files; index += 1) {
      const path = `${folder}/page-${String(index).padStart(3, '0')}.md`;
      const text = pageText(section, index);
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
