// Content and change requests written straight into the local service's state, where a test or a
// benchmark needs them before (or beside) the routes that make them: the records are the ones
// those routes keep. Free of the test runner, so benchmarks use it too.
import type { Emulator } from '../../src/emulator/create-emulator.js';
import {
  nextSeq,
  type StoredChangeRequest,
  type StoredFile,
  type StoredPage,
  type StoredRevision,
} from '../../src/emulator/emulator-state.js';

/** Where a revision goes: the space's main content, or a change request of it. */
export interface RevisionTarget {
  spaceId: string;
  changeRequestId?: string;
}

/** A page for `addRevision`; children nest under `pages`. */
export function testPage(id: string, slug: string, pages: StoredPage[] = []): StoredPage {
  const at = new Date().toISOString();
  return {
    id,
    title: `Page ${slug}`,
    slug,
    sourcePath: `${slug}.md`,
    markdown: `# ${slug}`,
    createdAt: at,
    updatedAt: at,
    pages,
  };
}

function ownerOf(emulator: Emulator, target: RevisionTarget) {
  const { state } = emulator;
  const owner =
    target.changeRequestId === undefined
      ? state.spaces[target.spaceId]
      : state.changeRequests[target.changeRequestId];
  if (owner === undefined) throw new Error('unknown space or change request');
  return owner;
}

/** A new revision with these pages and files, made the active one of the space, or of the change request. */
export function addRevision(
  emulator: Emulator,
  target: RevisionTarget,
  pages: StoredPage[],
  files: StoredFile[] = [],
): StoredRevision {
  const { state } = emulator;
  const owner = ownerOf(emulator, target);
  const seq = nextSeq(state);
  const revision: StoredRevision = {
    id: `rev_test${seq}`,
    seq,
    parents: [owner.revision],
    createdAt: new Date().toISOString(),
    pages,
    files,
  };
  state.revisions[revision.id] = revision;
  owner.revision = revision.id;
  return revision;
}

/**
 * An edit by a writer in the service, as its editor makes one: a new revision of the space (or of
 * the change request) with the current pages as `edit` leaves them, and the files kept.
 */
export function editInService(
  emulator: Emulator,
  target: RevisionTarget,
  edit: (pages: StoredPage[]) => void,
): StoredRevision {
  const current = emulator.state.revisions[ownerOf(emulator, target).revision];
  if (current === undefined) throw new Error('the space or change request has no content');
  const pages = structuredClone(current.pages);
  edit(pages);
  return addRevision(emulator, target, pages, current.files);
}

/** The first page, at any depth, with this source path or passing this test. */
export function findPage(pages: StoredPage[], match: string | ((page: StoredPage) => boolean)): StoredPage {
  const test = typeof match === 'string' ? (page: StoredPage) => page.sourcePath === match : match;
  const search = (list: StoredPage[]): StoredPage | undefined => {
    for (const page of list) {
      if (test(page)) return page;
      const inner = search(page.pages);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  const found = search(pages);
  if (found === undefined)
    throw new Error(typeof match === 'string' ? `no page at ${match}` : 'no such page');
  return found;
}

/** An open change request of the space, started from its current revision. */
export function addChangeRequest(
  emulator: Emulator,
  spaceId: string,
  createdBy: string,
): StoredChangeRequest {
  const { state } = emulator;
  const space = state.spaces[spaceId];
  if (space === undefined) throw new Error('addChangeRequest: unknown space');
  space.changeRequestCount += 1;
  const seq = nextSeq(state);
  const at = new Date().toISOString();
  const changeRequest: StoredChangeRequest = {
    id: `cr_test${seq}`,
    seq,
    spaceId,
    number: space.changeRequestCount,
    status: 'open',
    subject: `Change ${space.changeRequestCount}`,
    createdBy,
    createdAt: at,
    updatedAt: at,
    revision: space.revision,
    revisionInitial: space.revision,
    contributors: [createdBy],
  };
  state.changeRequests[changeRequest.id] = changeRequest;
  return changeRequest;
}
