// The pages a revision holds, by their path on the site, as a dry run compares them: documents only
// (a group holds no markdown, a link page points elsewhere). The path is the page's own `path`
// when the service gives one, else its slugs joined as the service joins them.
import type { RevisionPage } from '../api/schemas/revision-page-schema.js';

export interface ServicePage {
  id: string;
  path: string;
  /** The markdown when the revision carried it; else read on its own when needed. */
  markdown: string | undefined;
  /** Git's blob id of the page's markdown, when the service gives one: equal ids, equal text. */
  oid: string | undefined;
}

/** Every document of `pages` by path; of two pages at one path, the first in reading order. */
export function servicePagesByPath(pages: readonly RevisionPage[]): Map<string, ServicePage> {
  const byPath = new Map<string, ServicePage>();
  const visit = (list: readonly RevisionPage[], parent: string): void => {
    for (const page of list) {
      if (page.type === 'link') continue;
      const path = page.path ?? joinPath(parent, page.slug ?? page.id);
      if (page.type !== 'group' && !byPath.has(path))
        byPath.set(path, { id: page.id, path, markdown: page.markdown, oid: page.git?.oid });
      visit(page.pages ?? [], path);
    }
  };
  visit(pages, '');
  return byPath;
}

function joinPath(parent: string, slug: string): string {
  return parent === '' ? slug : `${parent}/${slug}`;
}
