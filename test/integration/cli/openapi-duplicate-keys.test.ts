// `docsync openapi validate` names every duplicate key of a document, not only the first: each on its
// own line behind `file:line:col`, and with `file`, `line` and `column` in `--json`, for an editor.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-context.js';

const YAML = `openapi: 3.0.3
info: { title: Pets, version: "1", title: Cats }
paths:
  /pets:
    get:
      responses: { '200': { description: ok } }
    get:
      responses: { '200': { description: ok } }
  /pets:
    post:
      responses: { '200': { description: ok } }
`;

const JSON_TEXT = `{
  "openapi": "3.0.3",
  "info": {"title": "Pets", "version": "1", "title": "Cats"},
  "paths": {
    "/pets": {
      "get": {"responses": {"200": {"description": "ok"}}},
      "get": {"responses": {"200": {"description": "ok"}}}
    },
    "/pets": {}
  }
}
`;

const FIX = 'twice in one object: parsers keep only one of them, so remove or rename one';

describe('docsync openapi validate with duplicate keys', () => {
  it.each([
    [
      'pets.yaml',
      YAML,
      [
        { key: 'title', line: 2, column: 36 },
        { key: 'get', line: 7, column: 5 },
        { key: '/pets', line: 9, column: 3 },
      ],
    ],
    [
      'pets.json',
      JSON_TEXT,
      [
        { key: 'title', line: 3, column: 45 },
        { key: 'get', line: 7, column: 7 },
        { key: '/pets', line: 9, column: 5 },
      ],
    ],
  ])('names each of the three in %s by file:line:col, in text and in --json', async (name, text, places) => {
    const cwd = await tempDir('openapi-duplicates');
    await writeFile(join(cwd, name), text);

    const { code, stdout, stderr } = await runCli(['openapi', 'validate', name], { cwd });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      [
        `${name}: not a valid OpenAPI document, 3 problem(s):`,
        ...places.map(({ key, line, column }) => `  ${name}:${line}:${column} has the key "${key}" ${FIX}`),
        '',
      ].join('\n'),
    );
    const lines = text.split('\n');
    for (const { key, line, column } of places)
      expect(lines[line - 1]?.slice(column - 1)).toMatch(new RegExp(`^"?${key}"?:`));

    const json = await runCli(['openapi', 'validate', '--json', name], { cwd });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      source: name,
      valid: false,
      total: 3,
      problems: places.map(({ key, line, column }) => ({
        file: name,
        line,
        column,
        pointer: '',
        message: `has the key "${key}" ${FIX}`,
      })),
    });
  });

  it('names each duplicate key of a file a $ref names, by that file:line:col', async () => {
    const cwd = await tempDir('openapi-duplicates-ref');
    await writeFile(
      join(cwd, 'api.yaml'),
      "openapi: 3.0.3\ninfo: { title: Pets, version: '1' }\npaths:\n  /pets: { $ref: 'pets.yaml' }\n",
    );
    await writeFile(
      join(cwd, 'pets.yaml'),
      "get:\n  summary: list\n  summary: all\n  responses: { '200': { description: ok } }\nget: {}\n",
    );
    const { code, stderr } = await runCli(['openapi', 'validate', 'api.yaml'], { cwd });
    expect(code).toBe(1);
    expect(stderr).toBe(
      [
        'api.yaml: not a valid OpenAPI document, 2 problem(s):',
        `  pets.yaml:3:3 has the key "summary" ${FIX}`,
        `  pets.yaml:5:1 has the key "get" ${FIX}`,
        '',
      ].join('\n'),
    );
  });
});
