import { describe, expect, it } from 'vitest';
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { parseConfig } from '../../../src/config/load-config.js';
import { yamlErrorHint, yamlSyntaxProblems } from '../../../src/config/yaml-syntax-problems.js';
import { configProblems } from '../../support/config-problems.js';

function problems(text: string): string[] {
  return configProblems(() => parseConfig(text, 'docsync.yaml', {}));
}

const SECRETS = ['hunter2', 'tok-123', 'sig-456', 'pa55word'];

/** Broken files whose neighbourhood holds secrets the yaml library would quote in its messages. */
const BROKEN = [
  // An unclosed quote swallows the rest of the file.
  'service:\n  baseUrl: "https://bot:hunter2@docs.example.com/v1?token=tok-123\n  token: pa55word\nredis:\n  url: redis://:sig-456@h:6379\n',
  // A flow list left open.
  'redis:\n  url: [redis://:hunter2@h:6379, tok-123\nhttp:\n  token: pa55word-sig-456\n',
  // A bad escape in a double-quoted secret.
  'service:\n  token: "hunter2\\qtok-123"\nhooks:\n  secret: pa55word-sig-456\n',
  // A block scalar header with text after it.
  'hooks:\n  secret: |hunter2 tok-123\n    pa55word sig-456\n',
  // Indentation that does not line up.
  'service:\n  baseUrl: https://x.test/v1?sig=sig-456\n   token: hunter2\n  timeout: tok-123 pa55word\n',
  // A tab used for indentation.
  'service:\n\ttoken: hunter2 tok-123 pa55word sig-456\n',
];

describe('YAML syntax errors', () => {
  it.each(BROKEN.map((text, i) => [i, text]))(
    'are one line per place with its location and no word of the file (case %i)',
    (_, text) => {
      const lines = problems(text as string);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).toMatch(/^\(document\): YAML: [^\n]+ \(docsync\.yaml:\d+:\d+\)$/);
        for (const secret of SECRETS) expect(line).not.toContain(secret);
      }
    },
  );

  it('point at the line and column of the error', () => {
    expect(problems('service:\n  baseUrl: https://x.test/v1\n\ttoken: abc\n')).toEqual([
      '(document): YAML: a tab is used for indentation: indent with spaces (docsync.yaml:3:1)',
    ]);
    expect(problems('http:\n  listen: [127.0.0.1:8787\nlog:\n  level: info\n')).toEqual([
      expect.stringMatching(/^\(document\): YAML: .* \(docsync\.yaml:3:1\)$/),
    ]);
  });

  it('give at most one line for each line of the file', () => {
    const lines = problems('a: b\n  c: d: e\n');
    expect(new Set(lines.map((line) => /:(\d+):\d+\)$/.exec(line)?.[1])).size).toBe(lines.length);
  });

  it('have a hint for every code the yaml library reports, none of them its own message', () => {
    const codes: Array<YAMLError['code']> = [
      'ALIAS_PROPS',
      'BAD_ALIAS',
      'BAD_DIRECTIVE',
      'BAD_DQ_ESCAPE',
      'BAD_INDENT',
      'BAD_PROP_ORDER',
      'BAD_SCALAR_START',
      'BLOCK_AS_IMPLICIT_KEY',
      'BLOCK_IN_FLOW',
      'DUPLICATE_KEY',
      'IMPOSSIBLE',
      'KEY_OVER_1024_CHARS',
      'MISSING_CHAR',
      'MULTILINE_IMPLICIT_KEY',
      'MULTIPLE_ANCHORS',
      'MULTIPLE_DOCS',
      'MULTIPLE_TAGS',
      'NON_STRING_KEY',
      'RESOURCE_EXHAUSTION',
      'TAB_AS_INDENT',
      'TAG_RESOLVE_FAILED',
      'UNEXPECTED_TOKEN',
      'BAD_COLLECTION_TYPE',
    ];
    const hints = codes.map(yamlErrorHint);
    expect(new Set(hints).size).toBe(codes.length);
    for (const hint of hints) expect(hint).toMatch(/^[a-z][^\n]{20,}$/);

    const lineCounter = new LineCounter();
    const doc = parseDocument('a: "x\\qhunter2"\n', { lineCounter });
    expect(doc.errors[0]?.message).toContain('hunter2');
    expect(yamlSyntaxProblems(doc.errors, lineCounter)).toEqual([
      { path: '', message: `YAML: ${yamlErrorHint('BAD_DQ_ESCAPE')}`, line: 1, column: 6 },
    ]);
  });
});
