// The source files the build's checks read (check-imports.mjs, measure-functions.mjs): every .ts,
// .mts, .mjs and .js file below a folder, declaration files left out, in name order.
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';

const SOURCE = /\.(ts|mts|mjs|js)$/;

export function* sourceFiles(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** A path with `/` between its parts, whatever the platform. */
export function toPosix(path) {
  return path.split(sep).join('/');
}
