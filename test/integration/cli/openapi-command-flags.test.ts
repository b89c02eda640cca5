// `docsync openapi validate|diff|upload` take a spec's `root` and `maxRefFiles` as flags, checked as
// the configuration checks them, and a refused read's hint names the flag that lets it through.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli-process.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir } from '../../support/test-context.js';

const SPEC = `openapi: 3.0.3
info: { title: Pets, version: "1" }
paths:
  /pets:
    get:
      responses:
        '200': { $ref: '../common/Pets.yaml' }
        default: { $ref: '../common/Error.yaml' }
`;

/** A repository whose spec names two files in a folder beside its own: `spec/` and `common/`. */
async function repository(): Promise<string> {
  const dir = await tempDir('openapi-flags');
  await mkdir(join(dir, 'spec'));
  await mkdir(join(dir, 'common'));
  await writeFile(join(dir, 'spec', 'openapi.yaml'), SPEC);
  await writeFile(join(dir, 'spec', 'next.yaml'), SPEC.replace('/pets:', '/cats:'));
  await writeFile(join(dir, 'common', 'Pets.yaml'), 'description: the pets\n');
  await writeFile(join(dir, 'common', 'Error.yaml'), 'description: failed\n');
  return dir;
}

describe('docsync openapi validate and diff with --root and --max-ref-files', () => {
  it('reads $refs above the document only within --root, and no more files than --max-ref-files', async () => {
    const cwd = await repository();
    const validate = (...args: string[]) =>
      runCli(['openapi', 'validate', ...args, 'spec/openapi.yaml'], { cwd });

    const confined = await validate();
    expect(confined.code).toBe(1);
    expect(confined.stderr).toContain('a $ref names ../common/');
    expect(confined.stderr).toContain('(on the command line: --root) [SOURCE_REFUSED]\n');

    const widened = await validate('--root', '.');
    expect(widened.stderr).toBe('');
    expect(widened.stdout).toBe(
      'spec/openapi.yaml: valid OpenAPI 3.0 document, 1 operation(s), with 2 file(s) its $refs name\n',
    );
    expect(widened.code).toBe(0);

    const capped = await validate('--root', '.', '--max-ref-files', '1');
    expect(capped.code).toBe(1);
    expect(capped.stderr).toContain('its $refs name more than 1 files');
    expect(capped.stderr).toContain('(on the command line: --max-ref-files) [SOURCE_TOO_LARGE]\n');
    expect(capped.stderr).not.toContain('--max-bytes');

    const diff = await runCli(['openapi', 'diff', '--root', '.', 'spec/openapi.yaml', 'spec/next.yaml'], {
      cwd,
    });
    expect(diff.stderr).toBe('');
    expect(diff.stdout).toMatch(/^1 operation\(s\) added, 1 removed, 0 changed; /);
    expect(diff.code).toBe(0);
  });

  it('refuses a --root that does not hold the document, or is no folder, and a count that is not one', async () => {
    const cwd = await repository();
    const validate = (...args: string[]) =>
      runCli(['openapi', 'validate', ...args, 'spec/openapi.yaml'], { cwd });

    const outside = await validate('--root', 'common');
    expect(outside.code).toBe(2);
    expect(outside.stderr).toBe(
      'docsync openapi validate: --root common does not contain spec/openapi.yaml: give a folder that holds it and the files its $refs name, such as --root .\n',
    );
    const missing = await validate('--root', 'nowhere');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--root nowhere is not a folder');

    const diff = await runCli(
      ['openapi', 'diff', '--root', 'spec', 'spec/openapi.yaml', 'common/Pets.yaml'],
      {
        cwd,
      },
    );
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain('--root spec does not contain common/Pets.yaml');

    for (const count of ['many', '-1', '10001']) {
      const wrong = await validate('--root', '.', '--max-ref-files', count);
      expect(wrong.code, count).toBe(2);
      expect(wrong.stderr, count).toMatch(
        /^docsync openapi validate: --max-ref-files \S+ (is not a whole number|is more than 10000)/,
      );
    }
  });
});

describe('docsync openapi upload with --root and --max-ref-files', () => {
  it("reads the spec with the flags in place of the configuration's root and maxRefFiles", async () => {
    const emulator = await startTestEmulator();
    const cwd = await repository();
    await writeFile(
      join(cwd, 'docsync.yaml'),
      `service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }\n` +
        'openapi:\n  - org: acme\n    slug: pets\n    every: 1h\n    source: { file: spec/openapi.yaml }\n',
    );
    const upload = (...args: string[]) =>
      runCli(['openapi', 'upload', '--config', 'docsync.yaml', '--slug', 'pets', '--dry-run', ...args], {
        cwd,
      });

    const confined = await upload();
    expect(confined.code).toBe(1);
    expect(confined.stderr).toContain('(on the command line: --root) [SOURCE_REFUSED]\n');

    const widened = await upload('--root', '.');
    expect(widened.stderr).toBe('');
    expect(widened.stdout).toBe(
      'acme/pets: dry run, spec/openapi.yaml is valid and would be uploaded: 1 operation(s)\n',
    );
    expect(widened.code).toBe(0);

    const capped = await upload('--root', '.', '--max-ref-files', '1');
    expect(capped.code).toBe(1);
    expect(capped.stderr).toContain('(on the command line: --max-ref-files) [SOURCE_TOO_LARGE]\n');

    const outside = await upload('--root', 'common');
    expect(outside.code).toBe(2);
    expect(outside.stderr).toBe(
      "docsync openapi upload: --root common does not contain the spec's file spec/openapi.yaml: give a folder that holds it, such as --root .\n",
    );
  });
});
