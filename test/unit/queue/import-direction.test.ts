// The direction of imports between src/ and jobs/, read from the files' import lines: processors
// depend on the kinds in src/queue/kinds, never on each other, and src/ takes the registry of jobs/
// in one place only.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-info.js';

/** The one file of src/ that may import from jobs/: the daemon, which runs the registry. */
const REGISTRY_USER = 'src/daemon/start-work.ts';
/** Helpers in jobs/ that are not processors: any processor may use them. */
const JOB_HELPERS = new Set(['jobs/job-requirements.ts']);

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(PACKAGE_ROOT, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(PACKAGE_ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** The repository files a source file imports (relative specifiers only; packages are not ours). */
async function importsOf(file: string): Promise<string[]> {
  const text = await readFile(join(PACKAGE_ROOT, file), 'utf8');
  return [...text.matchAll(IMPORT)]
    .map((match) => match[1] ?? '')
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) =>
      relative(PACKAGE_ROOT, resolve(PACKAGE_ROOT, dirname(file), specifier))
        .split(sep)
        .join('/')
        .replace(/\.js$/, '.ts'),
    );
}

describe('the direction of imports', () => {
  it('reads import lines as the test relies on', async () => {
    expect(await importsOf('jobs/registry.ts')).toContain('jobs/poll-git.ts');
    expect(await importsOf('jobs/poll-git.ts')).toContain('src/queue/kinds/poll-git-kind.ts');
  });

  it('no processor in jobs/ imports another one', async () => {
    const offending: string[] = [];
    for (const file of await sourceFiles('jobs')) {
      if (file === 'jobs/registry.ts') continue;
      for (const target of await importsOf(file))
        if (target.startsWith('jobs/') && !JOB_HELPERS.has(target)) offending.push(`${file} -> ${target}`);
    }
    expect(offending).toEqual([]);
  });

  it('nothing in src/ imports jobs/ except the daemon, and it takes only the registry', async () => {
    const users: string[] = [];
    for (const file of await sourceFiles('src'))
      for (const target of await importsOf(file))
        if (target.startsWith('jobs/')) users.push(`${file} -> ${target}`);
    expect(users).toEqual([`${REGISTRY_USER} -> jobs/registry.ts`]);
  });
});
