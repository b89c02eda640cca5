// The site the walk of every endpoint needs, made through the API: a site with two sections (each
// with a site space), a section group, a second site space, and spares that the walk's deletions
// consume (a site, a section, a section group, a site space).
import { bodyOf, type ServiceRequest } from './service-request.js';

export interface SiteRecords {
  siteId: string;
  spareSiteId: string;
  sectionId: string;
  otherSectionId: string;
  spareSectionId: string;
  groupId: string;
  spareGroupId: string;
  siteSpaceId: string;
  spareSiteSpaceId: string;
  /** A space of the organization on no site yet. */
  freeSpaceId: string;
}

export async function buildSiteRecords(admin: ServiceRequest, orgId: string): Promise<SiteRecords> {
  const org = `/orgs/${orgId}`;
  const id = async (path: string, body: unknown) =>
    (await bodyOf(admin<{ id: string }>(path, 'POST', body), 201)).id;
  const space = (title: string) => id(`${org}/spaces`, { title });
  const [first, second, third, fourth, freeSpaceId] = [
    await space('Site home'),
    await space('Site API'),
    await space('Site extras'),
    await space('Site archive'),
    await space('Site drafts'),
  ];

  const siteId = await id(`${org}/sites`, { title: 'Quokka site', visibility: 'public' });
  const spareSiteId = await id(`${org}/sites`, { title: 'Old site' });
  const site = `${org}/sites/${siteId}`;
  const sectionId = await id(`${site}/sections`, { spaceId: first, title: 'Home' });
  const otherSectionId = await id(`${site}/sections`, { spaceId: second, title: 'API' });
  const spareSectionId = await id(`${site}/sections`, { spaceId: third, title: 'Extras' });
  const groupId = await id(`${site}/section-groups`, { title: 'Reference', sections: [otherSectionId] });
  const spareGroupId = await id(`${site}/section-groups`, { title: 'Old reference' });
  const siteSpaceId = await id(`${site}/site-spaces`, { spaceId: fourth, sectionId });
  const { items } = await bodyOf(
    admin<{ items: Array<{ id: string; space: { id: string } }> }>(`${site}/site-spaces?limit=100`),
  );
  const spareSiteSpaceId = items.find((item) => item.space.id === first)?.id ?? 'missing site space';
  return {
    siteId,
    spareSiteId,
    sectionId,
    otherSectionId,
    spareSectionId,
    groupId,
    spareGroupId,
    siteSpaceId,
    spareSiteSpaceId,
    freeSpaceId: freeSpaceId ?? 'missing space',
  };
}
