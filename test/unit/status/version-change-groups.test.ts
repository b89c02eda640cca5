// The changelog of a spec's last version in the status: a record from before the counts reads as
// whole lists, a bounded one says how many it left out, and the page folds long lists.
import { describe, expect, it } from 'vitest';
import { specChangeLines, specChangesCell } from '../../../src/cli/spec-change-lines.js';
import { recordVersionChanges } from '../../../src/openapi/record-version-changes.js';
import { PAGE_CHANGES_OPEN, versionChangesCell } from '../../../src/status/page-version-changes.js';
import { type SpecStatusAnswer, statusAnswerSchema } from '../../../src/status/status-answer-schema.js';

const plain = (_style: string, text: string) => text;

function specWith(changes: unknown): SpecStatusAnswer {
  const answer = statusAnswerSchema.parse({
    version: '1.0.0',
    startedAt: '2026-11-21T10:00:00.000Z',
    uptimeSeconds: 1,
    mappings: [],
    openapi: [
      {
        org: 'acme',
        slug: 'pets',
        lastNewVersion: { at: '2026-11-21T11:00:00.000Z', result: 'uploaded', version: 'v2', changes },
      },
    ],
    queues: {},
  });
  return (answer.openapi as SpecStatusAnswer[])[0] as SpecStatusAnswer;
}

describe('the changes of the last version', () => {
  it('reads a record from before the counts as whole lists', () => {
    const spec = specWith({ added: ['POST /pets'], removed: [], changed: ['GET /pets'] });
    expect(specChangesCell(spec)).toBe('1 added, 1 changed');
    expect(specChangeLines(spec, plain)).toEqual([
      '  pets, version v2: 1 added, 1 changed',
      '    added (1):',
      '      POST /pets',
      '    changed (1):',
      '      GET /pets',
    ]);
  });

  it('keeps each list bounded with its true count, breaking first, and says what it left out', () => {
    const operations = Array.from({ length: 7 }, (_, i) => `GET /pets/${i}`);
    const recorded = recordVersionChanges(
      {
        added: [],
        removed: ['DELETE /pets'],
        changed: [],
        changedVia: operations.map((operation) => ({
          operation,
          components: ['components/schemas/Pet', 'components/schemas/Tag', 'components/schemas/A', 'x'],
        })),
        uncompared: 0,
      },
      [{ operation: 'DELETE /pets', kind: 'removed-operation' }],
      5,
    );
    expect(recorded.changedVia).toHaveLength(5);
    expect(recorded.changedVia?.[0]?.components).toHaveLength(3);
    expect(recorded.counts).toEqual({ added: 0, removed: 1, changed: 0, changedVia: 7, breaking: 1 });

    const spec = specWith(recorded);
    expect(specChangesCell(spec)).toBe('1 breaking, 1 removed, 7 changed through components');
    const lines = specChangeLines(spec, plain);
    expect(lines[1]).toBe('    breaking (1):');
    expect(lines).toContain(
      '      GET /pets/0 (via components/schemas/Pet, components/schemas/Tag, components/schemas/A)',
    );
    expect(lines.at(-1)).toMatch(/^ {6}… and 2 more, not kept/);
  });

  it('folds a kind past a few operations on the page, and escapes what it shows', () => {
    const many = Array.from({ length: PAGE_CHANGES_OPEN + 1 }, (_, i) => `GET /a/${i}`);
    const cell = versionChangesCell({ added: ['GET /<script>'], removed: [], changed: many }).markup;
    expect(cell).toContain('<div>added:<ul class="changes"><li>GET /&lt;script&gt;</li></ul></div>');
    expect(cell).toContain(`<details><summary>changed: ${many.length}</summary>`);
    expect(cell).not.toContain('<script>');
  });
});
