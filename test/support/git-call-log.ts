// A `git` on PATH that writes each command line it is given into a log, then runs the real git:
// tests count the git processes docsync starts (a look, a fetch) without guessing at them.
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from './test-context.js';

export interface GitCallLog {
  /** A PATH with the logging git first. */
  path: string;
  /** Every git command line so far, in order. */
  calls(): Promise<string[]>;
}

export async function gitCallLog(): Promise<GitCallLog> {
  const root = await tempDir('git-calls');
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const log = join(root, 'git-calls.log');
  await writeFile(log, '');
  await writeFile(join(root, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`);
  await chmod(join(root, 'git'), 0o755);
  return {
    path: `${root}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    calls: async () => (await readFile(log, 'utf8')).split('\n').filter((line) => line !== ''),
  };
}

/** The git subcommand of a logged command line: `fetch` in `--git-dir /x fetch --prune ...`. */
export function gitSubcommand(line: string): string {
  const words = line.split(' ');
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] ?? '';
    if (word === '--git-dir' || word === '-C' || word === '-c') index += 1;
    else if (!word.startsWith('-')) return word;
  }
  return '';
}
