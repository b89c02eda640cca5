import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/package-info.js';
import { runCli } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-context.js';

const EXAMPLE = join(PACKAGE_ROOT, 'config', 'docsync.example.yaml');

describe('docsync validate-config', () => {
  it('accepts the example configuration with exit code 0', async () => {
    const { code, stdout } = await runCli(['validate-config', 'config/docsync.example.yaml']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      'config/docsync.example.yaml: valid (1 mapping(s), 3 OpenAPI spec(s), redis embedded)\n',
    );
  });

  it('names the key path of each problem of a broken copy, with exit code 2', async () => {
    const dir = await tempDir('validate');
    const broken = join(dir, 'broken.yaml');
    const text = await readFile(EXAMPLE, 'utf8');
    await writeFile(
      broken,
      text.replace('      branch: main\n', '').replace('  attempts: 5', '  attempts: many'),
    );
    const { code, stderr, stdout } = await runCli(['validate-config', '--config', broken]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines[0]).toBe(`${broken}: invalid configuration, 2 problem(s):`);
    expect(lines[1]).toMatch(
      /^ {2}queues\.attempts: expected number, got string \(.*broken\.yaml:\d+:\d+\)$/,
    );
    expect(lines[2]).toMatch(
      /^ {2}mappings\[0\]\.git\.branch: Required: add `branch` \(.*broken\.yaml:\d+:\d+\)$/,
    );
  });

  it('says so when the file does not exist', async () => {
    const { code, stderr } = await runCli(['validate-config', 'config/nope.yaml']);
    expect(code).toBe(2);
    expect(stderr).toContain('(document): file not found: check the path given to --config');
  });

  it('answers --help at once and refuses unknown commands with exit code 2', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('validate-config');
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });
});
