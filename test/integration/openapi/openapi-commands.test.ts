import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli-process.js';
import { startFileServer } from '../../support/file-server.js';
import { callApi, startTestEmulator, type TestEmulator } from '../../support/start-test-emulator.js';
import { tempDir } from '../../support/test-context.js';

const GITHUB = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
/** GitHub's description is 13 MB, past a spec's default maxBytes. */
const BIG = ['--max-bytes', '20MiB'];
/** A CLI run that reads GitHub's description (twice for a diff) on a shared machine. */
const SLOW = 120_000;

// biome-ignore lint/suspicious/noExplicitAny: the edits below reach deep into a parsed document.
type Editable = Record<string, any>;

/** A copy of GitHub's description edited by `edit`, written pretty-printed into `dir`. */
async function githubCopy(dir: string, name: string, edit: (document: Editable) => void): Promise<string> {
  const document = JSON.parse(await readFile(GITHUB, 'utf8')) as Editable;
  edit(document);
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(document, null, 2));
  return file;
}

function parameter(document: Editable, path: string, method: string, name: string): Editable {
  return document.paths[path][method].parameters.find((item: { name?: string }) => item.name === name);
}

describe('docsync openapi validate', () => {
  it(
    "accepts GitHub's description with exit 0, and refuses it past --max-bytes",
    async () => {
      const valid = await runCli(['openapi', 'validate', ...BIG, GITHUB]);
      expect(valid.code).toBe(0);
      expect(valid.stdout).toMatch(
        /^\S+api\.github\.com\.json: valid OpenAPI 3\.0 document, \d{4} operation\(s\)\n$/,
      );

      const large = await runCli(['openapi', 'validate', GITHUB]);
      expect(large.code).toBe(1);
      expect(large.stderr).toContain('(on the command line: --max-bytes) [SOURCE_TOO_LARGE]');
    },
    SLOW,
  );

  it(
    'names each problem of an invalid GitHub copy by file, line and JSON pointer, with exit 1',
    async () => {
      const dir = await tempDir('openapi-validate');
      const file = await githubCopy(dir, 'broken.json', (document) => {
        delete document.info.version;
        document.paths['/repos/{owner}/{repo}/issues'].get.responses = {};
      });
      const { code, stdout, stderr } = await runCli(['openapi', 'validate', ...BIG, file]);
      expect(code).toBe(1);
      expect(stdout).toBe('');
      const lines = (await readFile(file, 'utf8')).split('\n');
      const problems = stderr.trim().split('\n');
      expect(problems[0]).toBe(`${file}: not a valid OpenAPI document, 2 problem(s):`);
      const located = problems.slice(1).map((line) => {
        const match = /^ {2}(.+):(\d+) #(\S+) (.+)$/.exec(line);
        expect(match, line).not.toBeNull();
        const [, shown, at, pointer, message] = match as unknown as [string, string, string, string, string];
        expect(shown).toBe(file);
        return { text: lines[Number(at) - 1], pointer, message };
      });
      expect(located).toEqual([
        { text: '  "info": {', pointer: '/info', message: "must have required property 'version'" },
        {
          text: '        "responses": {},',
          pointer: '/paths/~1repos~1{owner}~1{repo}~1issues/get/responses',
          message: 'must NOT have fewer than 1 properties',
        },
      ]);

      const json = await runCli(['openapi', 'validate', '--json', ...BIG, file]);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({
        valid: false,
        total: 2,
        problems: [{ file, pointer: '/info', line: expect.any(Number) }, { pointer: expect.any(String) }],
      });
    },
    SLOW,
  );

  it('confines $refs as a refresh does: files beside the document, nothing above it', async () => {
    const dir = await tempDir('openapi-validate-refs');
    await mkdir(join(dir, 'spec', 'schemas'), { recursive: true });
    const spec = (ref: string) =>
      `openapi: 3.0.3\ninfo: { title: Pets, version: "1" }\npaths:\n  /pets:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: { $ref: '${ref}' }\n`;
    await writeFile(join(dir, 'spec', 'schemas', 'pet.yaml'), 'type: object\n');
    await writeFile(join(dir, 'secret.yaml'), 'type: string\n');
    await writeFile(join(dir, 'spec', 'inside.yaml'), spec('schemas/pet.yaml'));
    await writeFile(join(dir, 'spec', 'outside.yaml'), spec('../secret.yaml'));

    const inside = await runCli(['openapi', 'validate', 'spec/inside.yaml'], { cwd: dir });
    expect(inside).toMatchObject({ code: 0 });
    expect(inside.stdout).toBe(
      'spec/inside.yaml: valid OpenAPI 3.0 document, 1 operation(s), with 1 file(s) its $refs name\n',
    );
    const outside = await runCli(['openapi', 'validate', 'spec/outside.yaml'], { cwd: dir });
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('a $ref names ../secret.yaml, outside the folder of the document');
    expect(outside.stderr).toContain('[SOURCE_REFUSED]');
  });

  it('reads a document at an http address', async () => {
    const files = await startFileServer();
    const url = files.put(
      '/pets.yaml',
      "swagger: '2.0'\ninfo: { title: Pets, version: '1' }\npaths:\n  /pets:\n    get:\n      responses:\n        '200': { description: ok }\n",
      'application/yaml',
    );
    const { code, stdout } = await runCli(['openapi', 'validate', '--json', url]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      source: url,
      valid: true,
      version: '2.0',
      operations: 1,
      refFiles: 0,
    });
  });
});

describe('docsync openapi diff', () => {
  it(
    "marks what breaks clients between two versions of GitHub's description, and exits 4 with --fail-on-breaking",
    async () => {
      const dir = await tempDir('openapi-diff');
      const after = await githubCopy(dir, 'new.json', (document) => {
        delete document.paths['/repos/{owner}/{repo}/issues/{issue_number}/lock'].delete;
        parameter(document, '/repos/{owner}/{repo}/issues', 'get', 'creator').required = true;
        parameter(document, '/repos/{owner}/{repo}/issues', 'get', 'milestone').schema = {
          type: 'string',
          enum: ['none', '*'],
        };
        const pages = document.paths['/repos/{owner}/{repo}/pages/deployments'].post;
        pages.requestBody.content['application/json'].schema.properties.artifact_id.type = 'integer';
        delete document.components.schemas['nullable-milestone'].properties.due_on;
        document.paths['/repos/{owner}/{repo}/issues'].get.summary = 'List issues, renamed';
      });

      const failing = await runCli(['openapi', 'diff', '--fail-on-breaking', ...BIG, GITHUB, after]);
      expect(failing.code).toBe(4);
      const lines = failing.stdout.split('\n');
      expect(lines[0]).toMatch(
        /^0 operation\(s\) added, 1 removed, \d+ changed; \d+ breaking change\(s\) in \d+ operation\(s\)$/,
      );
      expect(lines).toContain('  removed DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock (breaking)');
      const breaking = lines.slice(lines.indexOf('breaking changes:') + 1);
      expect(breaking).toEqual(
        expect.arrayContaining([
          '  DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock: removed operation',
          '  GET /repos/{owner}/{repo}/issues: narrowed query parameter milestone: string → enum ["none", "*"]',
          '  GET /repos/{owner}/{repo}/issues: query parameter creator is now required',
          '  GET /repos/{owner}/{repo}/issues: removed field [].milestone.due_on of response 200 application/json (in components/schemas/nullable-milestone)',
          '  POST /repos/{owner}/{repo}/pages/deployments: narrowed field artifact_id of request body application/json: number → integer',
        ]),
      );

      // The same diff without the flag is a report, not a failure; --json gives each change's kind.
      const json = await runCli(['openapi', 'diff', '--json', ...BIG, GITHUB, after]);
      expect(json.code).toBe(0);
      const report = JSON.parse(json.stdout) as { removed: string[]; breaking: Array<{ kind: string }> };
      expect(report.removed).toEqual(['DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock']);
      expect(new Set(report.breaking.map((change) => change.kind))).toEqual(
        new Set(['removed-operation', 'required-parameter', 'narrowed-type', 'removed-response-field']),
      );
    },
    SLOW,
  );

  it(
    'exits 0 with --fail-on-breaking when a version only adds and documents',
    async () => {
      const dir = await tempDir('openapi-diff-safe');
      const after = await githubCopy(dir, 'new.json', (document) => {
        document.paths['/repos/{owner}/{repo}/issues'].get.summary = 'List issues, renamed';
        document.components.schemas['simple-user'].properties.pronouns = { type: 'string' };
        document.paths['/pronouns'] = { get: { responses: { '200': { description: 'ok' } } } };
      });
      const { code, stdout } = await runCli(['openapi', 'diff', '--fail-on-breaking', ...BIG, GITHUB, after]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^1 operation\(s\) added, 0 removed, \d{3,} changed; no breaking changes\n/);
      expect(stdout).toContain('  added GET /pronouns\n');
      expect(stdout).not.toContain('breaking changes:');
    },
    SLOW,
  );
});

describe('docsync openapi upload', () => {
  /** The ids of the spec's versions, newest first. */
  async function versionIds(emulator: TestEmulator): Promise<string[]> {
    const answer = await callApi<{ items: Array<{ id: string }> }>(
      `${emulator.baseUrl}/orgs/${emulator.orgId}/openapi/pets/versions`,
      emulator.tokens.admin,
    );
    return answer.status === 404 ? [] : answer.body.items.map((item) => item.id);
  }
  const versions = async (emulator: TestEmulator) => (await versionIds(emulator)).length;

  it(
    'uploads a spec of the configuration to the service once per new content, and nothing on --dry-run or when invalid',
    async () => {
      const emulator = await startTestEmulator();
      const dir = await tempDir('openapi-upload');
      await writeFile(
        join(dir, 'docsync.yaml'),
        `service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }\nopenapi:\n  - org: ${emulator.orgId}\n    slug: pets\n    every: 1h\n    source: { file: pets.yaml }\n`,
      );
      const pets = (version: string, paths: string) =>
        `openapi: 3.0.3\ninfo: { title: Pets, version: "${version}" }\npaths:\n${paths}`;
      const one = "  /pets:\n    get:\n      responses:\n        '200': { description: ok }\n";
      await writeFile(join(dir, 'pets.yaml'), pets('1', one));
      const upload = (...extra: string[]) =>
        runCli(['openapi', 'upload', '--config', 'docsync.yaml', '--slug', 'pets', ...extra], { cwd: dir });

      const first = await upload();
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(
        new RegExp(
          `^${emulator.orgId}/pets: uploaded from pets\\.yaml as version \\S+, 1 operation\\(s\\)\\n$`,
        ),
      );
      expect(await versions(emulator)).toBe(1);

      // The same content again: the service's latest version holds it, so nothing is sent.
      const again = await upload('--json');
      expect(again.code).toBe(0);
      const [latest] = await versionIds(emulator);
      expect(JSON.parse(again.stdout)).toEqual({
        spec: `${emulator.orgId}/pets`,
        source: 'pets.yaml',
        result: 'unchanged',
        version: latest,
      });
      const said = await upload();
      expect(said.stdout).toBe(
        `${emulator.orgId}/pets: not uploaded: the service's latest version ${latest} already holds pets.yaml\n`,
      );
      expect(await versions(emulator)).toBe(1);

      await writeFile(
        join(dir, 'pets.yaml'),
        pets('2', `${one}    post:\n      responses:\n        '201': { description: made }\n`),
      );
      const dry = await upload('--dry-run');
      expect(dry.code).toBe(0);
      expect(dry.stdout).toBe(
        `${emulator.orgId}/pets: dry run, pets.yaml is valid and would be uploaded: 2 operation(s)\n`,
      );
      expect(await versions(emulator)).toBe(1);

      await writeFile(join(dir, 'pets.yaml'), pets('3', '  /pets:\n    get:\n      responses: {}\n'));
      const invalid = await upload();
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toContain('not a valid OpenAPI document, 1 problem(s):');
      expect(invalid.stderr).toContain(
        'pets.yaml #/paths/~1pets/get/responses must NOT have fewer than 1 properties',
      );
      expect(await versions(emulator)).toBe(1);

      const unknown = await upload('--slug', 'cats');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain(
        `has no OpenAPI spec with slug cats: its specs are ${emulator.orgId}/pets`,
      );
    },
    SLOW,
  );
});
