// What the service and git still say of a mapping's imports when docsync's state was lost (Redis
// came back empty, a new Redis, `docsync once` before the daemon): docsync's change requests, found
// by their subject marker, and the commits their subjects name, checked against the branch.
import type { DocsApiClient } from '../api/docs-api-client.js';
import type { GitMirror } from '../git/git-mirror.js';
import { type DocsyncChangeRequest, listDocsyncChangeRequests } from './docsync-change-requests.js';

export interface RecoverImportsInput {
  api: DocsApiClient;
  mirror: GitMirror;
  space: string;
  marker: string;
  /** The branch tip: a commit it does not contain (history rewritten since) tells nothing. */
  head: string;
  /** The mapping's folder. */
  dir: string;
  signal: AbortSignal;
}

export interface RecoveredImports {
  /** The commit of the newest change request naming one the branch holds: the last import. */
  lastImported: { sha: string; changeRequest: DocsyncChangeRequest } | undefined;
  /** The open or draft change request docsync keeps, with the commit it holds when its subject says. */
  open: { changeRequest: DocsyncChangeRequest; sha: string | undefined } | undefined;
  /** The newest merged one naming a commit the branch holds: the space descends from that commit. */
  merged: { sha: string; changeRequest: DocsyncChangeRequest } | undefined;
  /**
   * The newest change request naming a commit names one the branch no longer holds: its history was
   * rewritten since that import (the pause a force-push gets, which Redis forgot).
   */
  rewritten: { named: string; changeRequest: DocsyncChangeRequest } | undefined;
}

export async function recoverImports(input: RecoverImportsInput): Promise<RecoveredImports> {
  const { api, mirror, signal } = input;
  const changeRequests = await listDocsyncChangeRequests(api, input.space, input.marker, signal);
  const headTree = await mirror.treeHash(input.head, input.dir, signal);
  const onBranch = new Map<string, string | undefined>();
  // The commit a subject names, as the branch holds it: itself when the branch contains it; the head
  // when its folder is the head's (an unchanged import named no newer commit, or a rebase kept the
  // folder as it was); none when the branch lost it (history rewritten) or the mirror never had it.
  const resolve = async (named: string): Promise<string | undefined> => {
    const full = await mirror.commitId(named, signal);
    if (full === undefined) return undefined;
    if (headTree !== undefined && (await mirror.treeHash(full, input.dir, signal)) === headTree)
      return input.head;
    return (await mirror.isAncestor(full, input.head, signal)) ? full : undefined;
  };
  const commitOf = async (changeRequest: DocsyncChangeRequest): Promise<string | undefined> => {
    const named = changeRequest.importedCommit;
    if (named === undefined) return undefined;
    if (!onBranch.has(named)) onBranch.set(named, await resolve(named));
    return onBranch.get(named);
  };
  const recovered: RecoveredImports = {
    lastImported: undefined,
    open: undefined,
    merged: undefined,
    rewritten: undefined,
  };
  for (const changeRequest of changeRequests) {
    const sha = await commitOf(changeRequest);
    if (recovered.open === undefined && changeRequest.status !== 'merged')
      recovered.open = { changeRequest, sha };
    const named = changeRequest.importedCommit;
    if (named !== undefined && sha === undefined && recovered.lastImported === undefined) {
      recovered.rewritten = { named, changeRequest };
      break;
    }
    if (sha === undefined) continue;
    recovered.lastImported ??= { sha, changeRequest };
    if (changeRequest.status === 'merged') {
      recovered.merged = { sha, changeRequest };
      break;
    }
  }
  return recovered;
}
