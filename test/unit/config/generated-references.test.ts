import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generatedReferences } from '../../../src/build/generated-references.js';
import { CONFIG_DESCRIPTIONS } from '../../../src/config/config-descriptions.js';
import { configInputJsonSchema, forEachKey } from '../../../src/config/config-json-schema.js';
import { PACKAGE_ROOT } from '../../../src/package-info.js';

const readRepoFile = (path: string) => readFile(join(PACKAGE_ROOT, path), 'utf8');

async function editorValidator() {
  const schema = JSON.parse(await readRepoFile('config/docsync.schema.json'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(schema);
}

describe('files generated from the code', () => {
  it.each(generatedReferences().map(({ path, text }) => [path, text]))(
    '%s is current (run npm run docs:reference when this fails)',
    async (path, text) => {
      expect(await readRepoFile(path)).toBe(text);
    },
  );

  it('describes every key of the configuration, and no key it does not have', () => {
    const keys = new Set<string>();
    forEachKey(configInputJsonSchema(), (path) => keys.add(path));
    expect([...keys].filter((key) => CONFIG_DESCRIPTIONS[key] === undefined)).toEqual([]);
    expect(Object.keys(CONFIG_DESCRIPTIONS).filter((key) => !keys.has(key))).toEqual([]);
  });
});

describe('config/docsync.schema.json, as an editor reads it', () => {
  it.each(['config/docsync.example.yaml', 'config/demo.yaml'])(
    'accepts %s as written, ${VAR} references included, and the file names the schema',
    async (path) => {
      const text = await readRepoFile(path);
      expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./docsync.schema.json');
      const validate = await editorValidator();
      expect(validate(parse(text)) ? [] : validate.errors).toEqual([]);
    },
  );

  it('flags a misspelt key, a bad duration and a wrong enum value at their paths', async () => {
    const validate = await editorValidator();
    const file = parse(
      [
        'queues:',
        '  backoff: 5 seconds',
        'mappings:',
        '  - name: docs',
        '    space: space_1',
        '    direction: sideways',
        '    git: { repo: https://git.example.com/docs.git, bracnh: main }',
      ].join('\n'),
    );
    expect(validate(file)).toBe(false);
    const at = (validate.errors ?? []).map((error) => `${error.instancePath} ${error.keyword}`);
    expect(at).toContain('/queues/backoff pattern');
    expect(at).toContain('/mappings/0/direction enum');
    expect(at).toContain('/mappings/0/git additionalProperties');
  });

  it('takes a ${VAR} reference wherever a number, boolean or URL goes', async () => {
    const validate = await editorValidator();
    const file = parse(
      [
        'dryRun: ${DRY_RUN:-false}',
        'queues: { concurrency: "${CONCURRENCY}" }',
        'redis: { url: "${REDIS_URL:-}" }',
      ].join('\n'),
    );
    expect(validate(file) ? [] : validate.errors).toEqual([]);
  });
});
