// A service whose revision leaves the pages' markdown out (the interface does not promise it in
// `GET .../content`): the preview settles an unchanged page by its git blob id without reading it,
// and reads only the changed and removed pages on their own. The local service sits behind a proxy
// that strips the markdown from revisions and records which pages were read.
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredPage } from '../../../src/emulator/emulator-state.js';
import { previewImport } from '../../../src/preview/preview-import.js';
import { closeAfter } from '../../support/close-after.js';
import {
  addRevision,
  createTestSpace,
  startTestEmulator,
  type TestEmulator,
  testPage,
} from '../../support/start-test-emulator.js';
import { testApiClient } from '../../support/test-api-client.js';
import { tempDir } from '../../support/test-context.js';
import { writeZip } from '../../support/write-zip.js';

/** Forwards to the local service; strips `markdown` from revision pages; records page reads. */
async function startStrippingProxy(target: TestEmulator): Promise<{ baseUrl: string; pageReads: string[] }> {
  const pageReads: string[] = [];
  const strip = (pages: Array<Record<string, unknown>>): void => {
    for (const page of pages) {
      delete page.markdown;
      strip((page.pages as Array<Record<string, unknown>> | undefined) ?? []);
    }
  };
  const server = createServer((request, response) => {
    void (async () => {
      const url = request.url ?? '/';
      const answer = await fetch(`${target.origin}${url}`, {
        method: request.method ?? 'GET',
        headers: { authorization: request.headers.authorization ?? '', accept: 'application/json' },
      });
      let text = await answer.text();
      const path = url.split('?')[0] ?? '';
      const pageRead = /\/content\/page\/([^/]+)$/.exec(path);
      if (pageRead?.[1] !== undefined) pageReads.push(pageRead[1]);
      if (answer.ok && path.endsWith('/content')) {
        const revision = JSON.parse(text) as { pages: Array<Record<string, unknown>> };
        strip(revision.pages);
        text = JSON.stringify(revision);
      }
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(text);
    })().catch((error: unknown) => {
      response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfter(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as { port: number };
  return { baseUrl: `http://127.0.0.1:${port}/v1`, pageReads };
}

describe('a preview against a revision without markdown', () => {
  it('reads only the pages whose blob ids differ, and counts their lines', async () => {
    const emulator = await startTestEmulator();
    const space = await createTestSpace(emulator, 'No markdown');
    const page = (slug: string, markdown: string): StoredPage => ({
      ...testPage(`pg_${slug}`, slug),
      markdown,
    });
    addRevision(emulator.emulator, { spaceId: space }, [
      { ...page('readme', '# Home\n'), sourcePath: 'README.md' },
      page('setup', '# Setup\n\nold step\n'),
      page('old', '# Old\n\ngone\n'),
    ]);
    const bundle = join(await tempDir('preview-bundle'), 'bundle.zip');
    await writeFile(
      bundle,
      await writeZip([
        ['README.md', Buffer.from('# Home\n')],
        ['setup.md', Buffer.from('# Setup\n\nnew step\nand another\n')],
        ['new.md', Buffer.from('# New\n')],
      ]),
    );
    const proxy = await startStrippingProxy(emulator);
    const { client } = testApiClient({ ...emulator, baseUrl: proxy.baseUrl });

    const preview = await previewImport({
      api: client,
      space,
      knownChangeRequest: undefined,
      marker: '[docsync:none]',
      bundle,
      limits: { maxBytes: 1 << 20, maxFileBytes: 1 << 20 },
      listed: 10,
      signal: AbortSignal.timeout(20_000),
    });
    expect(preview).toMatchObject({
      added: 1,
      changed: 1,
      removed: 1,
      unchanged: 1,
      pages: [
        { path: 'new', change: 'added', linesAdded: 1, linesRemoved: 0 },
        { path: 'old', change: 'removed', linesAdded: 0, linesRemoved: 3 },
        { path: 'setup', change: 'changed', linesAdded: 2, linesRemoved: 1 },
      ],
    });
    expect(proxy.pageReads.sort()).toEqual(['pg_old', 'pg_setup']);
  });
});
