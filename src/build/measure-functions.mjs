// Function lengths in src/ and jobs/ (issue 41): every function, method, accessor, constructor and
// function expression assigned to a name, measured with the TypeScript parser from its first line to its
// last. Biome's noExcessiveLinesPerFunction (biome.json) enforces the limit in `npm run lint`; this
// script shows where the long ones are and how many there are, to track the figures.
// Usage: node src/build/measure-functions.mjs [root] [--over N]... (default: over 60 and over 100).
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { sourceFiles, toPosix } from './source-files.mjs';

const FOLDERS = ['src', 'jobs'];

/** Every named function of `root`/src and `root`/jobs: file, line (from 1), name and length in lines. */
export function measureFunctions(root) {
  const functions = [];
  const folders = FOLDERS.map((folder) => join(root, folder)).filter((folder) => existsSync(folder));
  for (const file of folders.flatMap((folder) => [...sourceFiles(folder)])) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKindOf(file));
    const path = toPosix(relative(root, file));
    const visit = (node) => {
      const name = nameOf(node);
      if (name !== undefined) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        functions.push({ file: path, line: first + 1, name, lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return functions;
}

/** The name a function goes by, or undefined when the node is no function or has no name. */
function nameOf(node) {
  if (ts.isFunctionDeclaration(node)) return node.name?.text ?? 'default';
  if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node))
    return `${classNameOf(node)}${node.name.getText()}`;
  if (ts.isConstructorDeclaration(node)) return `${classNameOf(node)}constructor`;
  if (ts.isFunctionExpression(node) || ts.isArrowFunction(node)) {
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent) && parent.initializer === node) return parent.name.getText();
    if (ts.isPropertyDeclaration(parent) && parent.initializer === node)
      return `${classNameOf(parent)}${parent.name.getText()}`;
    if (ts.isPropertyAssignment(parent) && parent.initializer === node) return parent.name.getText();
    if (ts.isBinaryExpression(parent) && parent.right === node) return parent.left.getText();
    if (ts.isFunctionExpression(node) && node.name !== undefined) return node.name.text;
  }
  return undefined;
}

function classNameOf(member) {
  const owner = member.parent;
  if ((ts.isClassDeclaration(owner) || ts.isClassExpression(owner)) && owner.name !== undefined)
    return `${owner.name.text}.`;
  return '';
}

function scriptKindOf(file) {
  return file.endsWith('.ts') || file.endsWith('.mts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
}

/** The report: for each threshold, the functions longer than it (longest first) and their count. */
export function formatReport(functions, thresholds) {
  const lines = [];
  for (const limit of thresholds) {
    const over = functions.filter((f) => f.lines > limit).sort((a, b) => b.lines - a.lines);
    lines.push(`over ${limit} lines: ${over.length}`);
    for (const f of over) lines.push(`  ${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
  }
  lines.push(`functions measured: ${functions.length}`);
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const thresholds = [];
  let root = '.';
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--over') thresholds.push(Number(args[++i]));
    else root = args[i];
  }
  if (thresholds.some((limit) => !Number.isInteger(limit) || limit < 1)) {
    process.stderr.write('--over takes a whole number of lines, for example --over 100\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(
      formatReport(measureFunctions(resolve(root)), thresholds.length > 0 ? thresholds : [60, 100]),
    );
  }
}
