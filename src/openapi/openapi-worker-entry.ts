// Where the OpenAPI worker thread's code is. Built, it is the JavaScript beside this module
// (dist/src, or the bundle's own entry in dist/bundle). From the TypeScript sources (tests, benches,
// `node --import tsx`), Node 20 cannot load TypeScript in a worker (loader hooks do not reach it):
// the worker's module is bundled once by esbuild (a devDependency, there when the sources are) into
// node_modules/.cache, named by its content, its packages left to resolve from node_modules.
import { createHash } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const BUILT_ENTRY = './openapi-worker-main.js';
const SOURCE_ENTRY = './openapi-worker-main.ts';

let entry: Promise<URL> | undefined;

export function openApiWorkerEntry(): Promise<URL> {
  entry ??= import.meta.url.endsWith('.ts')
    ? fromSources(import.meta.url)
    : Promise.resolve(new URL(BUILT_ENTRY, import.meta.url));
  // A failed build is tried again by the next task, not remembered.
  entry.catch(() => {
    entry = undefined;
  });
  return entry;
}

async function fromSources(own: string): Promise<URL> {
  // Not a literal: the bundle of docsync must not take esbuild in, which it never runs.
  const name = 'esbuild';
  const esbuild = (await import(name)) as typeof import('esbuild');
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(new URL(SOURCE_ENTRY, own))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const folder = new URL('../../node_modules/.cache/docsync/', own);
  const file = new URL(
    `openapi-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`,
    folder,
  );
  if (await exists(file)) return file;
  await mkdir(folder, { recursive: true });
  // Written aside and renamed: another process starting its worker never reads half a file.
  const partial = new URL(`${file.href}.${process.pid}.partial`);
  await writeFile(partial, code);
  await rename(partial, file);
  return file;
}

async function exists(file: URL): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
