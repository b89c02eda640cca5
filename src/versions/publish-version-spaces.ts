// The site side of a branches mapping: its section (found by the state's id or its title, renamed
// back when renamed by hand, created with the first space when missing), one site space per live
// branch at its path, none for a retired branch, and the default variant.
import type { SiteSection } from '../api/schemas/site-section-schema.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { collect } from './collect.js';
import { planSiteSpaces } from './plan-site-spaces.js';
import { plannedId } from './version-calls.js';
import { missingTarget, orgOf, type VersionDeps } from './version-service.js';

export interface LiveVersion {
  branch: string;
  space: string;
  path: string;
}

export interface Published {
  site: string;
  section: string;
  /** Site space id by branch. */
  siteSpaces: Record<string, string>;
}

export async function publishVersions(
  deps: VersionDeps,
  live: readonly LiveVersion[],
  retired: readonly { branch: string; space: string; reason: string }[],
  known: { site?: string | undefined; section?: string | undefined; siteSpaces: Record<string, string> },
  defaultBranch: string | undefined,
): Promise<Published | undefined> {
  const { api, mapping, signal } = deps;
  const site = mapping.site;
  if (site === undefined) return undefined;
  const org = orgOf(mapping);
  const sites = await collect(api.sites.listAll(org, { signal })).catch((error: unknown) => {
    throw missingTarget(error, `organization ${org}`);
  });
  const found =
    sites.find((candidate) => candidate.id === known.site) ??
    sites.find((candidate) => candidate.id === site.site || candidate.title === site.site);
  if (found === undefined)
    throw new DocsyncError(
      'VERSIONS_TARGET_MISSING',
      `site "${site.site}" does not exist in organization ${org}: create it, or name an existing site's id or title in site.site`,
    );
  const sections = await collect(api.sites.sections.listAll(org, found.id, { signal }));
  let section = await findSection(deps, found.id, sections, known.section);
  const siteSpaces: Record<string, string> = {};
  const fresh = section === undefined;
  if (section === undefined) {
    const first = live.find((version) => version.branch === defaultBranch) ?? live[0];
    if (first === undefined) return undefined;
    section = await deps.calls.write(
      { action: 'create section', branch: first.branch, reason: `section ${site.section} is missing` },
      () =>
        api.sites.sections.create(org, found.id, { spaceId: first.space, title: site.section }, { signal }),
      plannedSection(site.section),
    );
  }
  const sectionId = section.id;
  const plan = planSiteSpaces(
    section.siteSpaces.map((siteSpace) => ({
      siteSpace: siteSpace.id,
      space: siteSpace.space.id,
      path: siteSpace.path,
      default: siteSpace.default === true,
    })),
    live,
    retired,
  );
  Object.assign(siteSpaces, plan.kept);
  const addedPaths: { branch: string; siteSpace: string; path: string; reason: string }[] = [];
  for (const change of plan.changes) {
    if (change.kind === 'add') {
      const reason =
        known.siteSpaces[change.branch] === undefined ? 'new branch' : 'drift: site space removed by hand';
      const added = await deps.calls.write(
        { action: 'add site space', branch: change.branch, reason },
        () => api.sites.siteSpaces.add(org, found.id, { spaceId: change.space, sectionId }, { signal }),
        { id: plannedId(`site space for ${change.branch}`), path: '' },
      );
      siteSpaces[change.branch] = added.id;
      if (added.path !== change.path)
        addedPaths.push({ branch: change.branch, siteSpace: added.id, path: change.path, reason });
    } else if (change.kind === 'path') {
      await deps.calls.write(
        {
          action: 'set site space path',
          branch: change.branch,
          reason: fresh ? 'new branch' : `drift: path ${change.was} changed by hand`,
        },
        () => api.sites.siteSpaces.update(org, found.id, change.siteSpace, { path: change.path }, { signal }),
        undefined,
      );
    } else {
      await deps.calls.write(
        { action: 'remove site space', branch: change.branch, reason: change.reason },
        () => api.sites.siteSpaces.delete(org, found.id, change.siteSpace, { signal }),
        undefined,
      );
    }
  }
  // Last: the path a removed site space held may be the one an added one takes.
  for (const added of addedPaths)
    await deps.calls.write(
      { action: 'set site space path', branch: added.branch, reason: added.reason },
      () => api.sites.siteSpaces.update(org, found.id, added.siteSpace, { path: added.path }, { signal }),
      undefined,
    );
  await setDefault(
    deps,
    found.id,
    section,
    defaultBranch === undefined ? undefined : siteSpaces[defaultBranch],
  );
  return { site: found.id, section: sectionId, siteSpaces };
}

async function findSection(
  deps: VersionDeps,
  site: string,
  sections: readonly SiteSection[],
  known: string | undefined,
): Promise<SiteSection | undefined> {
  const title = deps.mapping.site?.section ?? '';
  const byId = sections.find((section) => section.id === known);
  if (byId === undefined) return sections.find((section) => section.title === title);
  if (byId.title === title) return byId;
  return deps.calls.write(
    { action: 'rename section', reason: `drift: section renamed by hand to ${byId.title}` },
    () =>
      deps.api.sites.sections.update(orgOf(deps.mapping), site, byId.id, { title }, { signal: deps.signal }),
    byId,
  );
}

async function setDefault(
  deps: VersionDeps,
  site: string,
  section: SiteSection,
  wanted: string | undefined,
): Promise<void> {
  if (wanted === undefined) return;
  const current = section.siteSpaces.find((siteSpace) => siteSpace.default === true)?.id;
  if (current === wanted) return;
  await deps.calls.write(
    {
      action: 'set default variant',
      reason: current === undefined ? 'no default variant' : 'drift: another variant is the default',
    },
    () =>
      deps.api.sites.sections.update(
        orgOf(deps.mapping),
        site,
        section.id,
        { defaultSiteSpace: wanted },
        {
          signal: deps.signal,
        },
      ),
    section,
  );
}

function plannedSection(title: string): SiteSection {
  return { object: 'site-section', id: plannedId('section'), title, path: '', siteSpaces: [] };
}
