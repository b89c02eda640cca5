// A docs folder in the shape people really keep in git next to a documentation service, quirks
// included: `.gitbook.yaml` naming another readme beside the git host's README.md, a SUMMARY.md with
// its own title, group headings, `-` bullets with four-space indents, leading-slash links, external
// entries, an entry without a link, a folder link, a page listed twice and one whose file is missing,
// pages no summary lists, GitBook blocks in pages, images and a large video, dotfiles, an executable
// script and two images whose names differ only in case. Generated, deterministic, nobody's real docs.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export interface RealShapedOptions {
  /** Pages the summary lists (documents), at least 12. */
  pages: number;
  /** Bytes of images under .gitbook/assets, spread over `images` files. */
  imageBytes: number;
  images: number;
  /** Bytes of one video file over the per-file size a mapping may leave out; 0 for none. */
  videoBytes: number;
}

export interface RealShapedDocs {
  /** Every file written, path relative to the docs folder. */
  files: string[];
  /** Files docsync does not own: never changed by an export. */
  notOwned: string[];
  /** The page a round trip edits. */
  editablePage: string;
  /** The lines of SUMMARY.md that are expected to give a warning, by code. */
  summaryQuirks: { duplicateLine: number; missingLine: number };
}

const GROUPS = ['Getting Started', 'Guides', 'Reference'];

/** Writes the folder under `dir` (created); returns what was written. */
export async function writeRealShapedDocs(dir: string, options: RealShapedOptions): Promise<RealShapedDocs> {
  const files = new Map<string, Buffer | string>();
  const executable = ['scripts/build-docs.sh'];
  let random = 0x2545f491;
  const next = () => {
    random ^= random << 13;
    random ^= random >>> 17;
    random ^= random << 5;
    return random >>> 0;
  };

  files.set('.gitbook.yaml', 'root: ./\n\nstructure:\n  readme: INTRODUCTION.md\n  summary: SUMMARY.md\n');
  files.set(
    'README.md',
    '# Our product docs\n\nThe published docs live in the service; this README is for the git host.\n',
  );
  files.set('.gitignore', 'node_modules/\n_book/\n');
  files.set('.DS_Store', Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31]));
  files.set('.toc.yaml', 'generated: true\n');
  files.set('scripts/build-docs.sh', '#!/bin/sh\nset -e\necho building docs\n');
  files.set('scripts/.gitbook.yaml', 'root: ./\n');
  files.set(
    'INTRODUCTION.md',
    '---\ndescription: Start here.\n---\n\n# Introduction\n\n{% hint style="info" %}\nNew here? Read [the quick start](getting-started/quick-start.md).\n{% endhint %}\n',
  );

  const summary: string[] = ['# Table of contents', '', '* [Introduction](INTRODUCTION.md)', ''];
  const perGroup = Math.ceil((options.pages - 1) / GROUPS.length);
  let written = 1;
  let editablePage = '';
  const images: string[] = [];
  for (let i = 0; i < options.images; i += 1) images.push(`.gitbook/assets/image-${i}.png`);
  for (const [g, group] of GROUPS.entries()) {
    const folder = group.toLowerCase().replace(/ /g, '-');
    summary.push(`## ${group}`, '');
    const readme = `${folder}/README.md`;
    files.set(readme, `# ${group}\n\nThe pages of ${group.toLowerCase()}.\n`);
    summary.push(`- [${group}](/${readme})`);
    written += 1;
    for (let p = 0; p < perGroup - 1 && written < options.pages; p += 1) {
      const name = g === 0 && p === 0 ? 'quick-start' : `page-${p + 1}`;
      const path = `${folder}/${name}.md`;
      const image = images[next() % Math.max(images.length, 1)];
      files.set(
        path,
        pageMarkdown(`${group} ${name}`, image === undefined ? undefined : `../${image}`, next),
      );
      summary.push(`    - [${group}: ${name}](/${path})`);
      if (editablePage === '') editablePage = path;
      written += 1;
    }
  }
  // The quirks real summaries have, each on a line of its own.
  summary.push('', '## More', '');
  summary.push('- Resources');
  summary.push('    - [Status page](https://status.example.com)');
  const duplicateLine = summary.push(`    - [Quick start again](/getting-started/quick-start.md)`);
  const missingLine = summary.push('    - [Old page](old/removed-page.md)');
  summary.push('- [Appendix](/appendix/)');
  files.set('appendix/README.md', '# Appendix\n\nWhat did not fit elsewhere.\n');
  files.set('SUMMARY.md', `${summary.join('\n')}\n`);

  // Pages nobody listed: drafts and notes kept beside the docs.
  files.set('drafts/next-release.md', '# Next release\n\nNot published yet.\n');
  files.set('notes.md', '# Notes\n\nSee [nowhere](missing.md).\n');

  const imageSize = Math.floor(options.imageBytes / Math.max(options.images, 1));
  for (const image of images) files.set(image, noise(imageSize, next));
  files.set('.gitbook/assets/Diagram.png', noise(2048, next));
  files.set('.gitbook/assets/diagram.png', noise(2048, next));
  if (options.videoBytes > 0) files.set('.gitbook/assets/walkthrough.mp4', noise(options.videoBytes, next));

  for (const [path, data] of files) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), data);
  }
  for (const path of executable) await chmod(join(dir, path), 0o755);
  return {
    files: [...files.keys()].sort(),
    notOwned: [
      '.gitignore',
      '.DS_Store',
      '.toc.yaml',
      'README.md',
      'scripts/build-docs.sh',
      'scripts/.gitbook.yaml',
      'drafts/next-release.md',
      'notes.md',
    ],
    editablePage,
    summaryQuirks: { duplicateLine, missingLine },
  };
}

function pageMarkdown(title: string, image: string | undefined, next: () => number): string {
  const paragraph =
    'Writers keep these pages in git and in the service at once; the text is long enough to look like a real page. ';
  const figure =
    image === undefined
      ? ''
      : `<figure><img src="${image}" alt=""><figcaption><p>A screenshot</p></figcaption></figure>\n\n`;
  return `# ${title}\n\n${paragraph.repeat(2 + (next() % 4))}\n\n${figure}{% tabs %}\n{% tab title="npm" %}\n\`\`\`sh\nnpm install\n\`\`\`\n{% endtab %}\n{% endtabs %}\n\n${paragraph.repeat(1 + (next() % 3))}\n`;
}

/** Bytes that do not compress, as real images and videos do not. */
function noise(size: number, next: () => number): Buffer {
  const data = Buffer.allocUnsafe(size);
  for (let i = 0; i + 4 <= size; i += 4) data.writeUInt32LE(next(), i);
  for (let i = size - (size % 4); i < size; i += 1) data[i] = next() & 0xff;
  return data;
}
