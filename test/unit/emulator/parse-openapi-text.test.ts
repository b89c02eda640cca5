import { describe, expect, it } from 'vitest';
import { MAX_DEPTH, parseOpenApiText } from '../../../src/emulator/parse-openapi-text.js';
import { YAML_ALIAS_BOMB } from '../../support/yaml-alias-bomb.js';

const PETS = { openapi: '3.0.3', info: { title: 'Pets', version: '1' }, paths: {} };

describe("the local service's reading of OpenAPI text", () => {
  it('reads JSON and YAML into the same document, and says which it was', () => {
    expect(parseOpenApiText(JSON.stringify(PETS))).toEqual({ ok: true, document: PETS, format: 'json' });
    const yaml = "openapi: 3.0.3\ninfo: { title: Pets, version: '1' }\npaths: {}\n";
    expect(parseOpenApiText(yaml)).toEqual({ ok: true, document: PETS, format: 'yaml' });
    expect(parseOpenApiText(`\ufeff${JSON.stringify(PETS)}`)).toMatchObject({ ok: true, format: 'json' });
  });

  it('tells text that is no OpenAPI document from text that does not parse', () => {
    for (const text of ['title: not an api', '[1, 2]', 'swagger', '"openapi"'])
      expect(parseOpenApiText(text), text).toEqual({ ok: false, reason: 'not-openapi' });
    for (const text of ['openapi: [unclosed', '{"openapi": ', 'a: 1\n---\nb: 2\n'])
      expect(parseOpenApiText(text), text).toMatchObject({ ok: false, reason: 'syntax' });
  });

  it('refuses a key written twice in one object, in JSON as in YAML, and only in one object', () => {
    expect(parseOpenApiText('{"openapi": "3.0.3", "paths": {}, "paths": {"/a": {}}}')).toEqual({
      ok: false,
      reason: 'syntax',
      message: 'has the key "paths" twice in one object',
    });
    expect(parseOpenApiText('{"openapi": "3.0.3", "p\\u0061ths": {}, "paths": {}}')).toMatchObject({
      reason: 'syntax',
    });
    expect(parseOpenApiText('openapi: 3.0.3\npaths: {}\npaths: {}\n')).toMatchObject({ reason: 'syntax' });
    const apart = '{"openapi": "3.0.3", "a": {"x": "\\"x\\":"}, "b": {"x": [{"x": 1}, {"x": 2}]}}';
    expect(parseOpenApiText(apart)).toMatchObject({ ok: true });
  });

  it('takes hundreds of aliases but refuses an alias bomb', () => {
    const aliased = `openapi: 3.0.3\nok: &ok { description: ok }\nuses: [${Array.from({ length: 300 }, () => '*ok').join(', ')}]\n`;
    expect(parseOpenApiText(aliased)).toMatchObject({ ok: true, format: 'yaml' });
    expect(parseOpenApiText(YAML_ALIAS_BOMB)).toMatchObject({ ok: false, reason: 'syntax' });
  });

  it(`takes nesting ${MAX_DEPTH} deep and refuses one level more`, () => {
    const nested = (depth: number) =>
      `{"openapi": "3.0.3", "x": ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(parseOpenApiText(nested(MAX_DEPTH))).toMatchObject({ ok: true });
    expect(parseOpenApiText(nested(MAX_DEPTH + 1))).toMatchObject({ ok: false, reason: 'syntax' });
    const yaml = (depth: number) => `openapi: 3.0.3\nx: ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}\n`;
    expect(parseOpenApiText(yaml(MAX_DEPTH))).toMatchObject({ ok: true, format: 'yaml' });
    expect(parseOpenApiText(yaml(MAX_DEPTH + 1))).toMatchObject({ ok: false, reason: 'syntax' });
  });
});
