// The direction of imports between src/ and jobs/, read from the files' import lines: a job's
// folder uses its own files, the shared files at jobs/ root and other jobs' kind files, never
// another job's processor; src/ queues work through kind files and shared payloads, and only the
// daemon runs the registry and builds the services; the queue layer knows no domain.
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-info.js';

/** What only the daemon (src/daemon/) of src/ may import from jobs/: it runs them, with their services. */
const DAEMON_ONLY = new Set(['jobs/registry.ts', 'jobs/job-services.ts']);
/** The folders of src/ the queue layer may import, besides its own. */
const QUEUE_MAY_IMPORT = new Set(['errors', 'log', 'metrics', 'redis', 'lifecycle']);

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

/** The job folder a path of jobs/ is in (`poll-git` for jobs/poll-git/poll-git-job.ts); undefined at the root. */
function jobFolderOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts[0] === 'jobs' && parts.length > 2 ? parts[1] : undefined;
}

/** A job's kind file: jobs/<b>/<b>-kind.ts. */
function isKindFile(path: string): boolean {
  const folder = jobFolderOf(path);
  return folder !== undefined && path === `jobs/${folder}/${folder}-kind.ts`;
}

/** A kind or a payload shared by several jobs, at jobs/ root (change-request-job-payload.ts...). */
function isSharedKindOrPayload(path: string): boolean {
  return /^jobs\/[^/]+-(kind|payload)\.ts$/.test(path);
}

describe('the direction of imports', () => {
  it('reads import lines as the test relies on', async () => {
    expect(await importsOf('jobs/registry.ts')).toContain('jobs/poll-git/poll-git-job.ts');
    expect(await importsOf('jobs/poll-git/poll-git-job.ts')).toContain('jobs/poll-git/poll-git-kind.ts');
    expect(jobFolderOf('jobs/poll-git/poll-git-job.ts')).toBe('poll-git');
    expect(isKindFile('jobs/import-content/import-content-kind.ts')).toBe(true);
    expect(isKindFile('jobs/import-content/import-content-job.ts')).toBe(false);
    expect(isSharedKindOrPayload('jobs/mapping-poll-payload.ts')).toBe(true);
    expect(isSharedKindOrPayload('jobs/job-requirements.ts')).toBe(false);
  });

  it("no job imports another job's processor or helpers: only its kind file, and the shared files at jobs/ root", async () => {
    const offending: string[] = [];
    for (const file of await sourceFiles('jobs')) {
      // The registry's role is to import every processor.
      if (file === 'jobs/registry.ts') continue;
      const folder = jobFolderOf(file);
      for (const target of await importsOf(file)) {
        if (!target.startsWith('jobs/')) continue;
        const targetFolder = jobFolderOf(target);
        const allowed =
          targetFolder === undefined
            ? target !== 'jobs/registry.ts'
            : targetFolder === folder || isKindFile(target);
        if (!allowed) offending.push(`${file} -> ${target}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('nothing in src/ imports jobs/ but kind files and shared payloads, except the daemon, which alone takes the registry and the services', async () => {
    const offending: string[] = [];
    const daemonImports = new Set<string>();
    for (const file of await sourceFiles('src'))
      for (const target of await importsOf(file)) {
        if (!target.startsWith('jobs/')) continue;
        const daemon = file.startsWith('src/daemon/');
        if (daemon && DAEMON_ONLY.has(target)) daemonImports.add(target);
        else if (!isKindFile(target) && !isSharedKindOrPayload(target))
          offending.push(`${file} -> ${target}`);
      }
    expect(offending).toEqual([]);
    // The daemon runs the registry with the services it builds: the one place src/ takes them from.
    expect([...daemonImports].sort()).toEqual([...DAEMON_ONLY].sort());
  });

  it('the queue layer imports no folder of src/ but errors, log, metrics, redis and lifecycle, and nothing of jobs/', async () => {
    const offending: string[] = [];
    for (const file of await sourceFiles('src/queue'))
      for (const target of await importsOf(file)) {
        const [top, folder] = target.split('/');
        if (top === 'jobs') offending.push(`${file} -> ${target}`);
        else if (top === 'src' && folder !== 'queue' && !QUEUE_MAY_IMPORT.has(folder ?? ''))
          offending.push(`${file} -> ${target}`);
      }
    expect(offending).toEqual([]);
  });
});
