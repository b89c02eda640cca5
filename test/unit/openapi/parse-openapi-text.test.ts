import { describe, expect, it } from 'vitest';
import { parseOpenApiText as serviceParse } from '../../../src/emulator/parse-openapi-text.js';
import { fragmentTokens, pointerRef, valueAt } from '../../../src/openapi/json-pointer.js';
import { OPENAPI_TEXT_LIMITS, parseOpenApiText } from '../../../src/openapi/parse-openapi-text.js';
import { YAML_ALIAS_BOMB } from '../../support/yaml-alias-bomb.js';

/** `count` aliases of one anchored map: more than the `yaml` package's default (100), far fewer than ours. */
function aliases(count: number): string {
  const uses = Array.from({ length: count }, (_, i) => `  r${i}: *err`).join('\n');
  return `openapi: 3.0.3\nshared:\n  e: &err { description: failed }\nresponses:\n${uses}\n`;
}

describe('parseOpenApiText', () => {
  it('reads JSON, YAML, YAML in flow style, and text behind a byte order mark', () => {
    expect(parseOpenApiText('{"openapi": "3.1.0"}')).toEqual({
      ok: true,
      value: { openapi: '3.1.0' },
      format: 'json',
    });
    expect(parseOpenApiText('openapi: 3.1.0\ninfo: { title: t }\n')).toMatchObject({
      ok: true,
      format: 'yaml',
      value: { openapi: '3.1.0', info: { title: 't' } },
    });
    expect(parseOpenApiText("{openapi: '3.1.0'}")).toMatchObject({ ok: true, format: 'yaml' });
    expect(parseOpenApiText('\uFEFF{"openapi": "3.1.0"}')).toMatchObject({ ok: true, format: 'json' });
  });

  it('refuses duplicate keys in JSON with their line and column, escaped spellings included', () => {
    const text = '{\n  "paths": {\n    "/a": {},\n    "/b": {},\n    "/a": {"get": {}}\n  }\n}';
    const duplicate = {
      kind: 'duplicate-key',
      message: expect.stringMatching(
        /^has the key "\/a" twice in one object \(line 5, column 5\): .*remove or rename one$/,
      ),
      line: 5,
      column: 5,
      key: '/a',
    };
    expect(parseOpenApiText(text)).toEqual({ ok: false, problem: duplicate, problems: [duplicate] });
    expect(parseOpenApiText('{"a": 1, "\\u0061": 2}')).toMatchObject({
      ok: false,
      problem: { kind: 'duplicate-key' },
    });
    // The same key in different objects, a key spelled in a value, and many keys in one object are fine.
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, { a: i, b: '"a": 1' }]));
    expect(parseOpenApiText(JSON.stringify({ x: { a: 1 }, y: { a: 1 }, ...many })).ok).toBe(true);
    const keys = Array.from({ length: 40 }, (_, i) => `"k${i}": ${i}`).join(', ');
    expect(parseOpenApiText(`{${keys}, "k7": 0}`)).toMatchObject({
      ok: false,
      problem: { kind: 'duplicate-key', message: expect.stringContaining('"k7"') },
    });
  });

  it('refuses duplicate keys in YAML with their line and column', () => {
    const duplicate = {
      kind: 'duplicate-key',
      message: expect.stringContaining('has the key "get" twice in one object (line 5, column 5)'),
      line: 5,
      column: 5,
      key: 'get',
    };
    expect(parseOpenApiText('openapi: 3.0.3\npaths:\n  /a:\n    get: {}\n    get: {}\n')).toEqual({
      ok: false,
      problem: duplicate,
      problems: [duplicate],
    });
  });

  it('names every duplicate key of a document, in JSON and in YAML, each with its line and column', () => {
    const yaml =
      'openapi: 3.0.3\npaths:\n  /a:\n    get: {}\n    get: {}\n  /a: {}\ninfo: { title: t, title: u }\n';
    const json =
      '{\n  "openapi": "3.0.3",\n  "paths": {\n    "/a": {"get": {}, "get": {}},\n    "/a": {}\n  },\n  "info": {"title": "t",\n    "title": "u"}\n}';
    const places = (text: string) => {
      const parsed = parseOpenApiText(text);
      return parsed.ok ? [] : parsed.problems.map(({ key, line, column }) => ({ key, line, column }));
    };
    expect(places(yaml)).toEqual([
      { key: 'get', line: 5, column: 5 },
      { key: '/a', line: 6, column: 3 },
      { key: 'title', line: 7, column: 19 },
    ]);
    expect(places(json)).toEqual([
      { key: 'get', line: 4, column: 23 },
      { key: '/a', line: 5, column: 5 },
      { key: 'title', line: 8, column: 5 },
    ]);
  });

  it('takes aliases up to its limit and refuses a billion laughs', () => {
    expect(parseOpenApiText(aliases(300)).ok).toBe(true);
    expect(parseOpenApiText(YAML_ALIAS_BOMB)).toMatchObject({
      ok: false,
      problem: {
        kind: 'aliases',
        message: expect.stringContaining(`past ${OPENAPI_TEXT_LIMITS.maxAliasCount}`),
      },
    });
  });

  it('refuses nesting past its limit, and an alias inside its own anchor', () => {
    const deep = `${'['.repeat(OPENAPI_TEXT_LIMITS.maxDepth + 1)}${']'.repeat(OPENAPI_TEXT_LIMITS.maxDepth + 1)}`;
    expect(parseOpenApiText(deep)).toMatchObject({ ok: false, problem: { kind: 'depth', line: 1 } });
    expect(parseOpenApiText('a: &a\n  b: *a\n')).toMatchObject({ ok: false, problem: { kind: 'depth' } });
  });

  it('says where a syntax error is', () => {
    expect(parseOpenApiText('openapi: 3.0.3\ninfo: [unclosed\n')).toMatchObject({
      ok: false,
      problem: {
        kind: 'syntax',
        message: expect.stringMatching(/^is neither JSON nor YAML \(line \d+, column \d+: /),
      },
    });
  });

  it('decides as the local service does, each with its own parser: duplicates refused, aliases taken', () => {
    const deep = `${'['.repeat(OPENAPI_TEXT_LIMITS.maxDepth + 1)}${']'.repeat(OPENAPI_TEXT_LIMITS.maxDepth + 1)}`;
    const texts = [
      'openapi: 3.0.3\ninfo: {}\ninfo: {}\n',
      '{"openapi": "3.0.3", "info": {}, "info": {}}',
      aliases(300),
      YAML_ALIAS_BOMB,
      deep,
      '\uFEFFopenapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\n',
    ];
    // The worker says what the problem is; the service only answers whether the text reads.
    const decision = (result: { ok: boolean; format?: string }) =>
      result.ok ? { ok: true, format: result.format } : { ok: false };
    for (const text of texts)
      expect(decision(serviceParse(text)), text.slice(0, 40)).toEqual(decision(parseOpenApiText(text)));
    expect(serviceParse('openapi: 3.0.3\ninfo: {}\ninfo: {}\n')).toMatchObject({
      ok: false,
      reason: 'syntax',
    });
    expect(serviceParse(aliases(300))).toMatchObject({ ok: true, format: 'yaml' });
    expect(serviceParse('title: not an api')).toEqual({ ok: false, reason: 'not-openapi' });
  });
});

describe('JSON pointers in $refs', () => {
  it('percent-encodes what a URI fragment may not hold, and reads it back', () => {
    const tokens = ['paths', '/menu-item-images/{menuItemId}', 'get', 'responses', '200', '100% ü'];
    const ref = pointerRef(tokens);
    expect(ref).toBe('#/paths/~1menu-item-images~1%7BmenuItemId%7D/get/responses/200/100%25%20%C3%BC');
    expect(fragmentTokens(ref.slice(1))).toEqual(tokens);
    expect(fragmentTokens('/paths/~1a~1{id}')).toEqual(['paths', '/a/{id}']);
    expect(fragmentTokens('anchor')).toBeUndefined();
    expect(fragmentTokens('/bad%E0')).toBeUndefined();
  });

  it('finds values by tokens, in objects and arrays', () => {
    const root = { a: [{ b: 1 }], 'c/d': null };
    expect(valueAt(root, ['a', '0', 'b'])).toEqual({ found: true, value: 1 });
    expect(valueAt(root, ['c/d'])).toEqual({ found: true, value: null });
    expect(valueAt(root, ['a', '1'])).toEqual({ found: false });
    expect(valueAt(root, ['a', '01'])).toEqual({ found: false });
    expect(valueAt(root, ['toString'])).toEqual({ found: false });
  });
});
