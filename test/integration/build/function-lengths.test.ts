// The limit of issue 41: no function past 100 lines in src/ and jobs/. The measure script names each
// long function with its file, line and length; biome's noExcessiveLinesPerFunction keeps the limit in
// `npm run lint`, and this repository holds no function past it.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../../../src/build/measure-functions.mjs');
const REPO = join(import.meta.dirname, '../../..');

const roots: string[] = [];

afterEach(async () => {
  await Promise.all(roots.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'function-lengths-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

function measure(root: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [SCRIPT, root, ...args], { encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A function body of `lines` statements. */
function statements(lines: number): string {
  return Array.from({ length: lines }, (_, i) => `  total += ${i};`).join('\n');
}

describe('the function length measure', () => {
  it('names each long function, method and named arrow with its file, line and length', async () => {
    const root = await tree({
      'src/long.ts': `export function declared(): number {\n  let total = 0;\n${statements(70)}\n  return total;\n}\n`,
      'jobs/job.ts': `export class Runner {\n  process(): number {\n    let total = 0;\n${statements(101)}\n    return total;\n  }\n}\n`,
      'src/arrow.ts': `export const arrow = (): number => {\n  let total = 0;\n${statements(5)}\n  return total;\n};\n`,
    });
    const { status, stdout } = measure(root);
    expect(status).toBe(0);
    expect(stdout).toContain('over 60 lines: 2\n');
    expect(stdout).toContain('over 100 lines: 1\n');
    expect(stdout).toContain('  jobs/job.ts:2 Runner.process (105 lines)');
    expect(stdout).toContain('  src/long.ts:1 declared (74 lines)');
    expect(stdout).not.toContain('arrow (');
    expect(stdout).toContain('functions measured: 3');
  });

  it('refuses a threshold that is not a whole number of lines', async () => {
    const root = await tree({ 'src/a.ts': 'export const a = 1;\n' });
    const { status, stderr } = measure(root, '--over', 'ten');
    expect(status).toBe(2);
    expect(stderr).toContain('--over takes a whole number of lines');
  });

  it('finds no function past 100 lines in this repository', () => {
    const { status, stdout } = measure(REPO, '--over', '100');
    expect(status).toBe(0);
    expect(stdout).toContain('over 100 lines: 0\n');
  });
});
