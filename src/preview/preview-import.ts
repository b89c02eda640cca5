// The preview of a dry-run import: the bundle docsync would upload compared, page by page path,
// with what the import would replace: the content of the change request it would update, or the
// space's live content when it would open a new one (a new change request starts from it). Reads
// only: the change request is looked up, never patched or created. A page whose markdown the
// revision left out is read on its own, a few at a time, unless its git blob id shows it unchanged.
import type { ContentTarget } from '../api/call-options.js';
import type { DocsApiClient } from '../api/docs-api-client.js';
import { mapBounded } from '../concurrency/map-bounded.js';
import { blobId } from '../content/folder-bytes.js';
import { readBundlePages } from './bundle-pages.js';
import type { ContentPreview, PreviewBase } from './content-preview.js';
import { countLineChanges, countLines } from './count-line-changes.js';
import { findKeptChangeRequest } from './find-kept-change-request.js';
import { PreviewBuilder } from './preview-builder.js';
import { type ServicePage, servicePagesByPath } from './service-pages.js';

export interface PreviewImportInput {
  api: DocsApiClient;
  space: string;
  /** The change request the state names for the mapping, if any. */
  knownChangeRequest: string | undefined;
  /** The marker in the subject of the change request docsync keeps for the mapping and branch. */
  marker: string;
  /** The bundle's zip file, and the limits it was made within. */
  bundle: string;
  limits: { maxBytes: number; maxFileBytes: number };
  /** Pages listed, the first by path; the counts cover every page. */
  listed: number;
  signal: AbortSignal;
}

/** Page reads in flight at once, for pages whose markdown the revision did not carry. */
const PARALLEL_READS = 6;

export async function previewImport(input: PreviewImportInput): Promise<ContentPreview> {
  const { api, space, signal } = input;
  const changeRequest = await findKeptChangeRequest({
    api,
    space,
    knownId: input.knownChangeRequest,
    marker: input.marker,
    signal,
  });
  const target: ContentTarget =
    changeRequest === undefined ? { spaceId: space } : { spaceId: space, changeRequestId: changeRequest.id };
  const [revision, sourcePages] = await Promise.all([
    api.content.getRevision(target, { signal, contentOnly: true }),
    readBundlePages(input.bundle, input.limits),
  ]);
  const against: PreviewBase =
    changeRequest === undefined
      ? { kind: 'live', revision: revision.id }
      : {
          kind: 'change-request',
          id: changeRequest.id,
          number: changeRequest.number,
          ...(changeRequest.urls?.app === undefined ? {} : { url: changeRequest.urls.app }),
          revision: revision.id,
        };
  const service = servicePagesByPath(revision.pages ?? []);
  const builder = new PreviewBuilder(against, input.listed);
  const markdownOf = async (page: ServicePage): Promise<string> =>
    page.markdown ??
    (await api.content.getPage(target, page.id, { format: 'markdown', signal })).markdown ??
    '';

  const matched = new Set<string>();
  await mapBounded(sourcePages, PARALLEL_READS, async ({ path, markdown }) => {
    const base = service.get(path);
    if (base === undefined) {
      builder.added(path, countLines(markdown));
      return;
    }
    matched.add(path);
    // The blob id settles an unchanged page without reading it; inline markdown is compared as text.
    if (
      base.markdown === undefined &&
      base.oid !== undefined &&
      base.oid === blobId(Buffer.from(markdown), base.oid.length)
    ) {
      builder.same();
      return;
    }
    builder.compared(path, countLineChanges(await markdownOf(base), markdown));
  });
  const gone = [...service.values()].filter((page) => !matched.has(page.path));
  await mapBounded(gone, PARALLEL_READS, async (page) => {
    builder.removed(page.path, countLines(await markdownOf(page)));
  });
  return builder.finish();
}
