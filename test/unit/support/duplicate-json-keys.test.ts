import { describe, expect, it } from 'vitest';
import { duplicateJsonKeys } from '../../support/duplicate-json-keys.js';

describe('the duplicate key reader of log lines', () => {
  it('finds a key written twice in one object, with its path', () => {
    expect(duplicateJsonKeys('{"level":30,"space":"a","job":"1","space":"a"}')).toEqual(['space']);
    expect(duplicateJsonKeys('{"err":{"code":"X","code":"Y"},"list":[{"a":1,"a":2}]}')).toEqual([
      'err.code',
      'list[0].a',
    ]);
  });

  it('accepts the same key in different objects, escaped keys and every kind of value', () => {
    expect(
      duplicateJsonKeys(
        '{"a":{"b":1},"c":{"b":[true,false,null,-1.5e3,"x\\"y"]},"d\\u0041":"{\\"a\\":1,\\"a\\":2}","dA2":{}}',
      ),
    ).toEqual([]);
  });

  it('compares keys as decoded: an escaped spelling of a key is the same key', () => {
    expect(duplicateJsonKeys('{"space":1,"sp\\u0061ce":2}')).toEqual(['space']);
  });

  it('refuses what is not JSON rather than report nothing', () => {
    expect(() => duplicateJsonKeys('{"a":1,}')).toThrow(SyntaxError);
    expect(() => duplicateJsonKeys('{"a":1} x')).toThrow(SyntaxError);
  });
});
