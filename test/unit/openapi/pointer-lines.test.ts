import { describe, expect, it } from 'vitest';
import { pointerLines } from '../../../src/openapi/pointer-lines.js';

const YAML = [
  'openapi: 3.0.3', // 1
  'info:', // 2
  '  title: Pets', // 3
  'paths:', // 4
  '  /pets/{id}:', // 5
  '    get:', // 6
  '      parameters:', // 7
  '        - name: id', // 8
  '          in: path', // 9
  '        - { name: q, in: query }', // 10
  '      responses:', // 11
  '        200:', // 12
  '          description: ok', // 13
  '',
].join('\n');

describe('pointer lines', () => {
  it('finds members, list items, escaped names and numeric keys in YAML', () => {
    const lineOf = pointerLines(YAML);
    expect(lineOf('/info')).toBe(2);
    expect(lineOf('/info/title')).toBe(3);
    expect(lineOf('/paths/~1pets~1{id}/get')).toBe(6);
    expect(lineOf('/paths/~1pets~1{id}/get/parameters/1')).toBe(10);
    expect(lineOf('/paths/~1pets~1{id}/get/parameters/0/in')).toBe(9);
    expect(lineOf('/paths/~1pets~1{id}/get/responses/200/description')).toBe(13);
  });

  it('gives the line of the deepest part that exists, and none for the whole document', () => {
    const lineOf = pointerLines(YAML);
    expect(lineOf('/info/version')).toBe(2);
    expect(lineOf('/paths/~1pets~1{id}/get/parameters/7')).toBe(7);
    expect(lineOf('')).toBeUndefined();
  });

  it('finds the same in JSON, strings holding brackets and quotes included', () => {
    const document = {
      openapi: '3.0.3',
      info: { title: 'a "quoted" {brace} [bracket]', 'x-\\': 1 },
      paths: { '/pets/{id}': { get: { parameters: [{ name: 'id' }, { name: 'q' }], responses: {} } } },
    };
    const text = JSON.stringify(document, null, 2);
    const lines = text.split('\n');
    const lineOf = pointerLines(text);
    expect(lines[(lineOf('/paths/~1pets~1{id}/get/responses') as number) - 1]).toContain('"responses"');
    expect(lines[(lineOf('/paths/~1pets~1{id}/get/parameters/1/name') as number) - 1]).toContain('"q"');
    expect(lines[(lineOf('/info/x-\\') as number) - 1]).toContain('"x-\\\\"');
    expect(lineOf('/info/version')).toBe(3);
    // Minified JSON is one line: every pointer is on it.
    expect(pointerLines(JSON.stringify(document))('/paths/~1pets~1{id}/get')).toBe(1);
  });
});
