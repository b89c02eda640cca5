// Which site-space changes bring a section to the declared variants: pure, over what the section
// holds now. A site space of a space that is not a live version of the mapping is left alone,
// unless it is the space of a deleted branch, or one a branch had before its space was made again.

export interface SectionVariant {
  siteSpace: string;
  space: string;
  path: string;
  default: boolean;
}

export interface DeclaredVariant {
  branch: string;
  space: string;
  path: string;
}

export type SiteSpaceChange =
  | { kind: 'add'; branch: string; space: string; path: string }
  | { kind: 'path'; branch: string; siteSpace: string; path: string; was: string }
  | { kind: 'remove'; branch: string; siteSpace: string; reason: string };

export interface SiteSpacePlan {
  /** Adds, then removals, then path changes. */
  changes: SiteSpaceChange[];
  /** Site space id by branch, for those that exist and stay. */
  kept: Record<string, string>;
}

export function planSiteSpaces(
  section: readonly SectionVariant[],
  declared: readonly DeclaredVariant[],
  retired: readonly { branch: string; space: string; reason: string }[],
): SiteSpacePlan {
  const bySpace = new Map(section.map((variant) => [variant.space, variant]));
  const adds: SiteSpaceChange[] = [];
  const paths: SiteSpaceChange[] = [];
  const kept: Record<string, string> = {};
  for (const want of declared) {
    const have = bySpace.get(want.space);
    if (have === undefined) {
      adds.push({ kind: 'add', branch: want.branch, space: want.space, path: want.path });
      continue;
    }
    kept[want.branch] = have.siteSpace;
    if (have.path !== want.path)
      paths.push({
        kind: 'path',
        branch: want.branch,
        siteSpace: have.siteSpace,
        path: want.path,
        was: have.path,
      });
  }
  const removes: SiteSpaceChange[] = retired.flatMap((gone) => {
    const have = bySpace.get(gone.space);
    return have === undefined
      ? []
      : [{ kind: 'remove' as const, branch: gone.branch, siteSpace: have.siteSpace, reason: gone.reason }];
  });
  // The service refuses to take a section's last site space: it stays until a branch comes back.
  const emptied = section.length + adds.length - removes.length === 0;
  // Adds, then removals, then paths: a section keeps a site space throughout, and the path of a
  // removed site space is free for its successor (the caller sets an added one's path last).
  const changes = [...adds, ...(emptied ? [] : removes), ...paths];
  return { changes, kept };
}
