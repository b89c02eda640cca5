// The import boundaries of src/, the second step of `npm run lint` (after biome): docsync and its
// local documentation service (src/emulator/) are two implementations of one interface (issue 40),
// which share only the wire schemas and vocabularies (src/api/schemas/) and the generic log/ and
// errors/. Biome's noRestrictedImports matches import texts as written, so a rule on `../content/*`
// misses `../../content/*` one folder down; here each relative import is resolved to the file it names.
// Usage: node src/build/check-imports.mjs [root], root holding src/ and jobs/ (default: the working
// directory). The worker's job processors in jobs/ are docsync too: they may not import the service.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { sourceFiles, toPosix } from './source-files.mjs';

/**
 * The rules, as data: a file under `from` may import only what lies under `allow`; a file outside
 * `exceptIn` may not import what lies under `to`. Paths are relative to the root, with `/`.
 */
export const IMPORT_RULES = [
  {
    from: 'src/emulator/',
    allow: ['src/emulator/', 'src/api/schemas/', 'src/log/', 'src/errors/'],
    rule: 'the local service (src/emulator/) imports only itself, src/api/schemas/, src/log/ and src/errors/',
    fix: 'give the local service its own code for this; a wire schema or vocabulary of the interface goes to src/api/schemas/, used by both sides',
  },
  {
    to: 'src/emulator/',
    exceptIn: ['src/emulator/', 'src/cli/emulator-command.ts', 'src/demo/'],
    rule: 'docsync does not import the local service (src/emulator/): only src/cli/emulator-command.ts and src/demo/ start it',
    fix: 'talk to the service over HTTP through src/api/; a wire schema or vocabulary it shares goes to src/api/schemas/',
  },
  {
    from: 'src/api/schemas/',
    allow: ['src/api/schemas/'],
    rule: 'the shared wire schemas (src/api/schemas/) import only one another, so that both sides can use them',
    fix: 'move what the schema needs into src/api/schemas/, or keep the logic on the side that uses it',
  },
];

const FOLDERS = ['src', 'jobs'];

/** Every import of `root`/src and `root`/jobs that breaks a rule: where, what, which rule, and the fix. */
export function checkImports(root) {
  const violations = [];
  const folders = FOLDERS.map((folder) => join(root, folder)).filter((folder) => existsSync(folder));
  for (const file of folders.flatMap((folder) => [...sourceFiles(folder)])) {
    const text = readFileSync(file, 'utf8');
    const importer = toPosix(relative(root, file));
    const lineStarts = lineStartsOf(text);
    for (const { fileName: specifier, pos } of ts.preProcessFile(text, true, true).importedFiles) {
      // Packages and Node's modules are no part of these boundaries.
      if (!specifier.startsWith('.')) continue;
      const target = toPosix(relative(root, resolve(dirname(file), specifier)));
      for (const rule of IMPORT_RULES) {
        if (!breaks(rule, importer, target)) continue;
        violations.push({ file: importer, line: lineOf(lineStarts, pos), specifier, target, ...rule });
      }
    }
  }
  return violations;
}

function breaks(rule, importer, target) {
  if (rule.from !== undefined)
    return importer.startsWith(rule.from) && !rule.allow.some((allowed) => target.startsWith(allowed));
  return (
    target.startsWith(rule.to) &&
    !rule.exceptIn.some((allowed) =>
      allowed.endsWith('/') ? importer.startsWith(allowed) : importer === allowed,
    )
  );
}

export function formatViolation(violation) {
  const { file, line, specifier, target, rule, fix } = violation;
  return `${file}:${line}: imports '${specifier}' (${target})\n  rule: ${rule}\n  fix: ${fix}\n`;
}

function lineStartsOf(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The line (from 1) of an offset: the number of line starts at or before it. */
function lineOf(lineStarts, offset) {
  let low = 0;
  let high = lineStarts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (lineStarts[middle] <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(process.argv[2] ?? '.');
  const violations = checkImports(root);
  if (violations.length > 0) {
    process.stderr.write(violations.map(formatViolation).join('\n'));
    process.stderr.write(
      `\n${violations.length} import(s) cross the boundary between docsync and its local service (issue 40): see rules in src/build/check-imports.mjs\n`,
    );
    process.exitCode = 1;
  }
}
