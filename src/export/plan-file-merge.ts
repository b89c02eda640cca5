// Space to git, file by file against the base (the commit the space was last known to equal): the
// three-way rule of an export. A file only the service changed takes the service's version; a file
// only git changed keeps git's; only a file both changed, differently, is a conflict. Decided on blob
// ids, so no file is read back from git. Pure.

export interface FileSides {
  /** The base's blob per path below the docs root; undefined when no base is known. */
  base: ReadonlyMap<string, string> | undefined;
  /** The branch tip's blob per path below the docs root. */
  head: ReadonlyMap<string, string>;
}

export interface FileMerge {
  /** The service changed it and git did not: the export writes (or deletes) it on the branch. */
  apply: string[];
  /** Git changed it and the service did not: git's version stays. */
  keepGit: string[];
  /** Both changed it, differently (or no base tells who did): it goes to a conflict branch. */
  conflicts: string[];
}

/**
 * `changes`: each path the export would change at the tip, with the blob id of the space's bytes
 * (undefined: the space no longer holds the file). Each path lands in exactly one list, sorted.
 */
export function planFileMerge(changes: ReadonlyMap<string, string | undefined>, sides: FileSides): FileMerge {
  const merge: FileMerge = { apply: [], keepGit: [], conflicts: [] };
  for (const path of [...changes.keys()].sort()) {
    if (sides.base === undefined) {
      merge.conflicts.push(path);
      continue;
    }
    const atBase = sides.base.get(path);
    if (atBase === sides.head.get(path)) merge.apply.push(path);
    else if (changes.get(path) === atBase) merge.keepGit.push(path);
    else merge.conflicts.push(path);
  }
  return merge;
}
