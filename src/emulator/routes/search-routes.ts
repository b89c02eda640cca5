// Search in a space's content and across the organization: pages whose title or markdown contain
// the query (case-insensitive), with the matching sections; and the link checks of a space's main
// content and of a change request, each in one list (the interface lists the space's; the public
// document of the service has the change request's too, `listChangeRequestLinks`).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LINK_STATUSES } from '../../api/schemas/service-enums.js';
import { callerOf, requireNamedChangeRequest, requireNamedSpace, requireOrg } from '../access.js';
import type { EmulatorContext } from '../emulator-context.js';
import type { StoredPage, StoredSpace } from '../emulator-state.js';
import { pageOf } from '../page-list.js';
import { parseInput } from '../parse-input.js';
import { revisionLinks } from '../revision-links.js';
import { requireRevision } from '../revisions.js';
import { linkList } from './link-list.js';

const searchQuery = z.looseObject({
  query: z.string().min(1).max(512),
  page: z.string().optional(),
  limit: z.string().optional(),
});
const linksQuery = z.looseObject({
  page: z.string().optional(),
  limit: z.string().optional(),
  status: z.enum(LINK_STATUSES).optional(),
});
const changeRequestLinksQuery = linksQuery.extend({
  brokenContext: z.enum(['change-request', 'space']).optional(),
});

type Params = { s: string; o: string; cr: string };

export function registerSearchRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: Params }>('/v1/spaces/:s/search', async (request) => {
    const { space } = requireNamedSpace(ctx, request, 'read', 'searching the space');
    const query = parseInput(searchQuery, request.query, 'query');
    const hits = searchSpace(ctx, space, query.query).map((hit, i) => ({ ...hit, seq: i + 1 }));
    return pageOf(hits, query, ({ seq: _seq, ...hit }) => hit);
  });

  app.get<{ Params: Params }>('/v1/orgs/:o/search', async (request) => {
    const caller = callerOf(request);
    const org = requireOrg(caller, request.params.o, 'read', 'searching the organization');
    const query = parseInput(searchQuery, request.query, 'query');
    const spaces = Object.values(ctx.state.spaces).filter(
      (space) => space.orgId === org.id && space.deletedAt === undefined,
    );
    const hits = spaces
      .map((space) => ({
        seq: space.seq,
        id: space.id,
        title: space.title,
        pages: searchSpace(ctx, space, query.query),
      }))
      .filter((hit) => hit.pages.length > 0);
    return pageOf(hits, query, ({ seq: _seq, ...hit }) => hit);
  });

  app.get<{ Params: Params }>('/v1/spaces/:s/links', async (request) => {
    const { caller, space } = requireNamedSpace(ctx, request, 'read', 'listing the links of the space');
    const query = parseInput(linksQuery, request.query, 'query');
    const links = revisionLinks(ctx, requireRevision(ctx, space.revision));
    return linkList(ctx, caller, space, undefined, links, query);
  });

  app.get<{ Params: Params }>('/v1/spaces/:s/change-requests/:cr/links', async (request) => {
    const { caller, space, cr } = requireNamedChangeRequest(
      ctx,
      request,
      'read',
      'listing the links of a change request',
    );
    const query = parseInput(changeRequestLinksQuery, request.query, 'query');
    const links = revisionLinks(ctx, requireRevision(ctx, cr.revision));
    return linkList(ctx, caller, space, cr, links, query);
  });
}

function searchSpace(ctx: EmulatorContext, space: StoredSpace, text: string) {
  const needle = text.toLowerCase();
  const hits: Array<{ id: string; title: string; path: string; sections: unknown[]; urls: { app: string } }> =
    [];
  const visit = (pages: readonly StoredPage[], parentPath: string) => {
    for (const page of pages) {
      // Links have no place on the site; a group is a heading in the navigation, not a page to find.
      if (page.type === 'link') continue;
      const path = parentPath === '' ? page.slug : `${parentPath}/${page.slug}`;
      if (page.type === 'group') {
        visit(page.pages, path);
        continue;
      }
      const sections = sectionsOf(page.markdown).filter((section) =>
        `${section.title}\n${section.body}`.toLowerCase().includes(needle),
      );
      if (page.title.toLowerCase().includes(needle) || sections.length > 0) {
        const app = `${ctx.origin()}/app/p/${page.id}`;
        hits.push({
          id: page.id,
          title: page.title,
          path,
          sections: sections.map((section, i) => ({
            id: `${page.id}-s${i}`,
            title: section.title,
            path: `${path}#${section.anchor}`,
            body: section.body.slice(0, 300),
            urls: { app: `${app}#${section.anchor}` },
          })),
          urls: { app },
        });
      }
      visit(page.pages, path);
    }
  };
  visit(requireRevision(ctx, space.revision).pages, '');
  return hits;
}

function sectionsOf(markdown: string): Array<{ title: string; anchor: string; body: string }> {
  const sections: Array<{ title: string; anchor: string; body: string }> = [];
  let current = { title: '', anchor: '', body: '' };
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.+)$/.exec(line);
    if (heading?.[1] !== undefined) {
      if (current.title !== '' || current.body.trim() !== '') sections.push(current);
      const title = heading[1].trim();
      current = {
        title,
        anchor: title
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, '-')
          .replace(/^-|-$/g, ''),
        body: '',
      };
    } else {
      current.body += `${line}\n`;
    }
  }
  if (current.title !== '' || current.body.trim() !== '') sections.push(current);
  return sections.map((section) => ({ ...section, body: section.body.trim() }));
}
