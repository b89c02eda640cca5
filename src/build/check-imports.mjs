// The import boundaries of src/ and jobs/, the second step of `npm run lint` (after biome). docsync
// and its local documentation service (src/emulator/) are two implementations of one interface
// (issue 40), which share only the wire schemas and vocabularies (src/api/schemas/) and the generic
// log/ and errors/. One job, one folder (issue 41): the queue layer knows no job and no domain, a job
// uses src/ and the kinds of other jobs but never their processors, and src/ reaches jobs/ through
// kind files, the registry and the services only. Biome's noRestrictedImports matches import texts
// as written, so a rule on `../content/*` misses `../../content/*` one folder down; here each
// relative import is resolved to the file it names.
// Usage: node src/build/check-imports.mjs [root], root holding src/ and jobs/ (default: the working
// directory).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { sourceFiles, toPosix } from './source-files.mjs';

/**
 * The rules, as data: a file that matches `from` and no `exceptIn`, importing what matches `to` (by
 * default anything), must import what matches `allow`. Paths are relative to the root, with `/`, and
 * compared without their extension (an import names `x.js` for the source `x.ts`). In a pattern `**`
 * is any path, `*` any part of one folder or file name, and `{name}` one name, the same wherever it
 * recurs: `{job}` in `from` is the importer's job, so `jobs/{job}/**` in `allow` is its own folder.
 * An import is reported once, under the first rule it breaks.
 */
export const IMPORT_RULES = [
  {
    from: ['src/emulator/**'],
    allow: ['src/emulator/**', 'src/api/schemas/**', 'src/log/**', 'src/errors/**'],
    rule: 'the local service (src/emulator/) imports only itself, src/api/schemas/, src/log/ and src/errors/',
    fix: 'give the local service its own code for this; a wire schema or vocabulary of the interface goes to src/api/schemas/, used by both sides',
  },
  {
    from: ['**'],
    exceptIn: ['src/emulator/**', 'src/cli/emulator-command.ts', 'src/demo/**'],
    to: ['src/emulator/**'],
    allow: [],
    rule: 'docsync does not import the local service (src/emulator/): only src/cli/emulator-command.ts and src/demo/ start it',
    fix: 'talk to the service over HTTP through src/api/; a wire schema or vocabulary it shares goes to src/api/schemas/',
  },
  {
    from: ['src/api/schemas/**'],
    allow: ['src/api/schemas/**'],
    rule: 'the shared wire schemas (src/api/schemas/) import only one another, so that both sides can use them',
    fix: 'move what the schema needs into src/api/schemas/, or keep the logic on the side that uses it',
  },
  {
    from: ['src/queue/**'],
    allow: [
      'src/queue/**',
      'src/errors/**',
      'src/log/**',
      'src/metrics/**',
      'src/redis/**',
      'src/lifecycle/**',
    ],
    rule: 'the queue layer (src/queue/) knows no job and no domain: it imports only itself, src/errors/, src/log/, src/metrics/, src/redis/, src/lifecycle/ and packages',
    fix: 'make it a port or an option the daemon fills (src/queue/job-runner-options.ts, src/daemon/runner-ports.ts), or take the generic part into src/queue/',
  },
  {
    from: ['jobs/{job}/**'],
    to: ['src/daemon/**', 'src/cli/**', 'src/demo/**'],
    allow: [],
    rule: 'a job (jobs/{job}/) does not import the daemon, the CLI or the demo: they start jobs, not the other way round',
    fix: 'name the service in the NEEDS of the job (jobs/job-services.ts) or take the code from its domain folder in src/',
  },
  {
    from: ['jobs/{job}/**'],
    allow: ['src/**', 'jobs/{job}/**', 'jobs/*', 'jobs/{other}/{other}-kind.ts'],
    rule: "a job (jobs/{job}/) imports src/, its own folder, the files at jobs/ root and another job's kind file (jobs/<b>/<b>-kind.ts), never another job's processor or helpers",
    fix: 'to add work of another kind import its kind file; code two jobs share goes to its domain folder in src/, or a shared payload or kind to jobs/ root',
  },
  {
    from: ['src/**'],
    exceptIn: ['src/daemon/**'],
    to: ['jobs/**'],
    allow: ['jobs/*/*-kind.ts', 'jobs/*-payload.ts', 'jobs/*-kind.ts'],
    rule: 'src/ imports from jobs/ only kind files (jobs/*/*-kind.ts) and the shared payloads and kinds at jobs/ root; only src/daemon/ imports jobs/registry.ts and jobs/job-services.ts',
    fix: 'import the kind to add work, or move the code the job and src/ share into src/; what needs the registry or the services belongs in src/daemon/',
  },
  {
    from: ['src/daemon/**'],
    to: ['jobs/**'],
    allow: [
      'jobs/*/*-kind.ts',
      'jobs/*-payload.ts',
      'jobs/*-kind.ts',
      'jobs/registry.ts',
      'jobs/job-services.ts',
    ],
    rule: "the daemon imports from jobs/ only the registry (jobs/registry.ts), the services (jobs/job-services.ts), kind files and shared payloads, never a job's processor",
    fix: 'reach a processor through JOBS in jobs/registry.ts; code the daemon and a job share goes to src/',
  },
].map(compileRule);

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
      const broken = IMPORT_RULES.map((rule) => brokenRule(rule, importer, target)).find(Boolean);
      if (broken === undefined) continue;
      violations.push({ file: importer, line: lineOf(lineStarts, pos), specifier, target, ...broken });
    }
  }
  return violations;
}

/** The rule's text with the importer's names filled in, if the import breaks it. */
function brokenRule(rule, importer, target) {
  const from = withoutExtension(importer);
  const match = rule.from.map((pattern) => pattern.exec(from)).find(Boolean);
  if (match === undefined || rule.exceptIn.some((pattern) => pattern.test(from))) return undefined;
  const path = withoutExtension(target);
  if (!rule.to.some((pattern) => pattern.test(path))) return undefined;
  const names = match.groups ?? {};
  if (rule.allow.some((pattern) => toRegExp(fillIn(pattern, names)).test(path))) return undefined;
  return { rule: fillIn(rule.rule, names), fix: fillIn(rule.fix, names) };
}

function compileRule({ from, exceptIn = [], to = ['**'], allow, rule, fix }) {
  return {
    from: from.map(toRegExp),
    exceptIn: exceptIn.map(toRegExp),
    to: to.map(toRegExp),
    allow,
    rule,
    fix,
  };
}

/** The text with each `{name}` bound in `from` replaced by the importer's; other names left as they are. */
function fillIn(text, names) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => names[name] ?? whole);
}

function toRegExp(pattern) {
  const seen = new Set();
  const source = withoutExtension(pattern)
    .split(/(\*\*|\*|\{\w+\})/)
    .map((part) => {
      if (part === '**') return '.*';
      if (part === '*') return '[^/]*';
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.+?^$()[\]|\\]/g, '\\$&');
      if (seen.has(name)) return `\\k<${name}>`;
      seen.add(name);
      return `(?<${name}>[^/]+)`;
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/** `a/b.ts` and `a/b.js` name one module; `a/` and `a/**` keep their form. */
function withoutExtension(path) {
  return path.replace(/\.(ts|mts|js|mjs)$/, '');
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
      `\n${violations.length} import(s) cross a folder boundary (issues 40 and 41): see the rules in src/build/check-imports.mjs\n`,
    );
    process.exitCode = 1;
  }
}
