// The export reads a space's revision as its body arrives (the service has no paging of pages):
// whatever the chunks, the revision is the one the whole body parses to, and the size cap is per
// page, so a space far larger than the cap exports while one page over it is still refused.
import { describe, expect, it } from 'vitest';
import { isApiError } from '../../../src/api/api-error.js';
import { readContentStream, readRevisionStream } from '../../../src/api/read-revision-stream.js';
import { contentPagesSchema } from '../../../src/api/schemas/content-pages-schema.js';
import { revisionSchema } from '../../../src/api/schemas/revision-schema.js';

const answer = {
  method: 'GET',
  path: '/spaces/sp1/content',
  status: 200,
  requestId: 'req-1',
  secrets: ['s3cret-token'],
};
const roomy = { maxPartBytes: 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024 };

/** The body in chunks of `size` bytes, as a socket might deliver it. */
async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const tricky = {
  object: 'revision',
  id: 'rev_1',
  parents: ['rev_0'],
  // Members before and after the pages and files, objects and arrays among them.
  urls: { app: 'https://app.example/r/rev_1' },
  files: [
    {
      id: 'f1',
      name: 'a [1].png',
      downloadURL: 'https://cdn.example/f1?x={y}',
      size: 3,
      git: { oid: 'abc', path: '.gitbook/assets/a [1].png' },
    },
    { id: 'f2', name: 'pages.txt', dimensions: { width: 1, height: 2 } },
  ],
  pages: [
    {
      id: 'p1',
      title: 'Home "quoted" {not a brace}',
      markdown:
        '# Home\n\n```json\n{"pages": [1, 2], "files": []}\n```\n\\\\ back\\slash ]]} \u00e9\u{1f600}',
      type: 'document',
      slug: 'home',
      // Checked and reshaped as the page's schema does: the address kept, the other member dropped.
      createdAt: '2025-01-01T10:00:00.000+02:00',
      urls: { app: 'https://app.example/p1', other: { pages: [] } },
      layout: { cover: true, pages: [] },
      pages: [],
    },
    {
      pages: [
        {
          id: 'p2a',
          title: 'Child',
          markdown: 'child',
          type: 'document',
          pages: [{ id: 'p2a1', title: 'Grandchild', markdown: '', type: 'document', pages: [] }],
        },
        { id: 'p2b', title: 'Link', type: 'link', target: { kind: 'url', url: 'https://x.example' } },
      ],
      id: 'p2',
      title: 'Guides',
      type: 'group',
      extra: [{ pages: [{ not: 'a page' }] }, null, true, 1.5e3],
    },
  ],
  reusableContents: [],
  type: 'edits',
  mergedFrom: { object: 'change-request', id: 'cr1', subject: 'x' },
};

describe('readRevisionStream', () => {
  it('reads the revision the whole body parses to, whatever the chunks', async () => {
    const text = JSON.stringify(tricky, null, 1);
    const expected = revisionSchema.parse(JSON.parse(text));
    expect(expected.pages?.[0]?.urls).toEqual({ app: 'https://app.example/p1' });
    for (const size of [1, 2, 3, 7, 64, text.length]) {
      expect(await readRevisionStream(chunks(text, size), answer, roomy)).toEqual(expected);
    }
    // Compact, as services send it.
    expect(await readRevisionStream(chunks(JSON.stringify(tricky), 5), answer, roomy)).toEqual(expected);
  });

  it('reads the page tree of `.../content/pages` the same way', async () => {
    const text = JSON.stringify({ pages: tricky.pages });
    const expected = contentPagesSchema.parse(JSON.parse(text));
    const pages = await readContentStream(chunks(text, 9), answer, roomy, contentPagesSchema);
    expect(pages).toEqual(expected);
  });

  it('keeps of each page and file only what docsync reads, when asked for the content only', async () => {
    const text = JSON.stringify(tricky);
    const revision = await readRevisionStream(chunks(text, 7), answer, { ...roomy, contentOnly: true });
    const home = revision.pages?.[0];
    expect(Object.keys(home ?? {}).sort()).toEqual(
      ['git', 'href', 'id', 'markdown', 'pages', 'path', 'slug', 'target', 'title', 'type'].sort(),
    );
    expect(home).toMatchObject({ id: 'p1', title: tricky.pages[0]?.title, slug: 'home', type: 'document' });
    expect(home).not.toHaveProperty('layout');
    expect(home?.urls).toBeUndefined();
    expect(revision.pages?.[1]?.pages?.[0]?.pages?.[0]).toMatchObject({ id: 'p2a1', title: 'Grandchild' });
    expect(revision.pages?.[1]?.pages?.[1]?.target).toEqual({ kind: 'url', url: 'https://x.example' });
    expect(revision.files?.[0]).toEqual({
      id: 'f1',
      name: 'a [1].png',
      contentType: undefined,
      downloadURL: 'https://cdn.example/f1?x={y}',
      size: 3,
      git: { oid: 'abc', path: '.gitbook/assets/a [1].png' },
    });
    expect(revision.files?.[1]).not.toHaveProperty('dimensions');
    // The revision's own members stay as they are.
    expect(revision.urls).toEqual({ app: 'https://app.example/r/rev_1' });
  });

  it('hands each page to keepPage as it arrives, and waits on pause between chunks', async () => {
    const pages = Array.from({ length: 50 }, (_, i) => ({
      id: `p${i}`,
      title: `Page ${i}`,
      markdown: `# Page ${i}\n`,
      pages: [{ id: `c${i}`, title: 'Child', markdown: 'child', pages: [] }],
    }));
    const text = JSON.stringify({ id: 'rev_k', pages });
    const seen: string[] = [];
    let chunksRead = 0;
    let pauses = 0;
    const body = (async function* () {
      for await (const chunk of chunks(text, 64)) {
        chunksRead += 1;
        yield chunk;
      }
    })();
    const revision = await readRevisionStream(body, answer, {
      ...roomy,
      keepPage: (page) => {
        seen.push(page.id);
        // What keepPage returns is what the revision holds.
        return { ...page, markdown: undefined };
      },
      pause: () => {
        // A slow consumer: the next chunk is read only once this resolves.
        const read = chunksRead;
        pauses += 1;
        return new Promise<void>((resolve) =>
          setImmediate(() => {
            expect(chunksRead).toBe(read);
            resolve();
          }),
        );
      },
    });
    // Children first, as each page's part closes after its child pages'.
    expect(seen.slice(0, 2)).toEqual(['c0', 'p0']);
    expect(seen).toHaveLength(100);
    expect(pauses).toBe(chunksRead);
    expect(revision.pages?.[49]).toMatchObject({ id: 'p49', markdown: undefined });
    expect(revision.pages?.[49]?.pages?.[0]).toMatchObject({ id: 'c49', markdown: undefined });
  });

  it('keeps a revision without pages or files without them', async () => {
    const text = JSON.stringify({ id: 'rev_2', parents: [] });
    expect(await readRevisionStream(chunks(text, 4), answer, roomy)).toEqual({ id: 'rev_2', parents: [] });
  });

  it('caps each page, not the whole: a body many times the cap is read', async () => {
    const pages = Array.from({ length: 200 }, (_, i) => ({
      id: `p${i}`,
      title: `Page ${i}`,
      markdown: 'x'.repeat(400),
      pages: [{ id: `c${i}`, title: 'Child', markdown: 'y'.repeat(400), pages: [] }],
    }));
    const text = JSON.stringify({ id: 'rev_big', pages });
    const limits = { maxPartBytes: 1024, maxTotalBytes: 1024 * 1024 };
    expect(text.length).toBeGreaterThan(100 * limits.maxPartBytes);
    const revision = await readRevisionStream(chunks(text, 1000), answer, limits);
    expect(revision.pages).toHaveLength(200);
    expect(revision.pages?.[199]?.pages?.[0]?.markdown).toBe('y'.repeat(400));

    const oneLarge = JSON.stringify({
      id: 'rev_big',
      pages: [...pages.slice(0, 3), { id: 'huge', title: 'Huge', markdown: 'z'.repeat(2000) }],
    });
    const error = await readRevisionStream(chunks(oneLarge, 1000), answer, limits).catch((e: unknown) => e);
    expect(isApiError(error, 'API_RESPONSE_TOO_LARGE')).toBe(true);
    expect((error as Error).message).toContain('pages[3]');
    // And the whole body still has a ceiling.
    const total = await readRevisionStream(chunks(text, 1000), answer, {
      maxPartBytes: 1024,
      maxTotalBytes: 10_000,
    }).catch((e: unknown) => e);
    expect(isApiError(total, 'API_RESPONSE_TOO_LARGE')).toBe(true);
  });

  it('names where a page does not match the schema', async () => {
    const text = JSON.stringify({
      id: 'rev_3',
      pages: [{ id: 'a', pages: [{ id: 'b' }, { id: 7, title: 's3cret-token' }] }],
    });
    const error = await readRevisionStream(chunks(text, 3), answer, roomy).catch((e: unknown) => e);
    expect(isApiError(error, 'API_RESPONSE_INVALID')).toBe(true);
    expect((error as { issues: string[] }).issues[0]).toMatch(/^pages\[0\]\.pages\[1\]\.id: /);
    expect((error as { requestId: string }).requestId).toBe('req-1');
  });

  it('reads strings ending in backslashes and escaped quotes, split anywhere', async () => {
    const revision = {
      id: 'rev_5',
      pages: [
        {
          id: 'p1',
          title: 'a \\"quoted\\" \\\\',
          markdown: 'ends with backslashes \\\\\\\\',
          description: '"\\"',
          pages: [{ id: 'p1a', title: '\\', markdown: '\u00e9\\"}]', pages: [] }],
        },
      ],
    };
    const text = JSON.stringify(revision);
    const expected = revisionSchema.parse(JSON.parse(text));
    for (const size of [1, 2, 3, 5, 7, 11]) {
      expect(await readRevisionStream(chunks(text, size), answer, roomy)).toEqual(expected);
    }
  });

  it('keeps child pages under a key written with escapes, and empty arrays with spaces', async () => {
    const text =
      '{"id": "rev_6", "pages": [{"id": "a", "pag\\u0065s": [{"id": "b", "pages": [ \n ]}], "pages": [ ]}]}';
    const expected = revisionSchema.parse(JSON.parse(text));
    expect(expected.pages?.[0]?.pages).toEqual([]);
    for (const size of [1, 4, text.length]) {
      expect(await readRevisionStream(chunks(text, size), answer, roomy)).toEqual(expected);
    }
    const escaped = '{"id": "rev_7", "pages": [{"id": "a", "pag\\u0065s": [{"id": "b"}]}]}';
    const read = await readRevisionStream(chunks(escaped, 3), answer, roomy);
    expect(read.pages?.[0]?.pages).toEqual([{ id: 'b' }]);
  });

  it('caps a page in bytes, however few characters they make', async () => {
    const limits = { maxPartBytes: 1024, maxTotalBytes: 1024 * 1024 };
    // 600 characters of two bytes each: under the cap in characters, over it in bytes.
    const text = JSON.stringify({ id: 'rev_8', pages: [{ id: 'a', markdown: '\u00e9'.repeat(600) }] });
    const error = await readRevisionStream(chunks(text, 100), answer, limits).catch((e: unknown) => e);
    expect(isApiError(error, 'API_RESPONSE_TOO_LARGE')).toBe(true);
    expect((error as Error).message).toContain('pages[0]');
    const fits = JSON.stringify({ id: 'rev_8', pages: [{ id: 'a', markdown: '\u00e9'.repeat(400) }] });
    expect((await readRevisionStream(chunks(fits, 100), answer, limits)).pages?.[0]?.markdown).toBe(
      '\u00e9'.repeat(400),
    );
  });

  it('names the part that is not JSON', async () => {
    const text = '{"id": "rev_9", "pages": [{"id": "a", "pages": [{"id": "b", "title": }]}]}';
    const error = await readRevisionStream(chunks(text, 4), answer, roomy).catch((e: unknown) => e);
    expect(isApiError(error, 'API_RESPONSE_INVALID')).toBe(true);
    expect((error as Error).message).toContain('pages[0].pages[0] is not JSON');
    expect((error as { retryable: boolean }).retryable).toBe(true);
  });

  it('refuses what is not a whole revision: asked again when it is not JSON, not when it is other JSON', async () => {
    // [body, retryable]: a body that is not JSON (cut short, a proxy's page) may be whole next time.
    const cases: Array<[string, boolean]> = [
      ['', true],
      ['   ', true],
      ['<!DOCTYPE html><html><body>Bad gateway</body></html>', true],
      ['[{"id": "x"}]', false],
      ['"rev"', false],
      ['{"id": "rev_4", "pages": [{"id": "a"}', true],
      ['{"id": "rev_4"} {"id": "rev_5"}', true],
      ['{"id": "rev_4"} x', true],
      ['{"id": "rev_4", "pages": [{"id": "a", "title": }]}', true],
      ['{"id": "rev_4", "pages": [{"id": "a"]}', true],
      ['{"pages": []}', false],
      ['{"id": "rev_4", "pages": [1]}', false],
      ['{"id": "rev_4", "pages": [{"id": "a"}, "b"]}', false],
      ['{"id": "rev_4", "files": [[]]}', false],
    ];
    for (const [text, retryable] of cases) {
      const error = await readRevisionStream(chunks(text, 2), answer, roomy).catch((e: unknown) => e);
      expect(isApiError(error, 'API_RESPONSE_INVALID'), text).toBe(true);
      expect((error as { retryable: boolean }).retryable, text).toBe(retryable);
    }
  });
});
