// check-links: the link check of a change request after an import (or of a space's main content),
// recorded per target; each link that broke or was fixed since the last check of the same target
// gets one log line, not the whole list every time.
import { z } from 'zod';
import { DocsyncError } from '../src/errors/docsync-error.js';
import { brokenLinksOf } from '../src/import/change-request-links.js';
import { diffBrokenLinks } from '../src/import/diff-broken-links.js';
import { defineJob } from '../src/queue/job-definition.js';
import { LinkCheckStore } from '../src/state/link-check-store.js';

export const checkLinksPayload = z.object({
  space: z.string(),
  changeRequest: z.string().optional(),
  revision: z.string(),
});

export const checkLinksJob = defineJob({
  name: 'check-links',
  queue: 'links',
  payload: checkLinksPayload,
  async run(ctx, payload) {
    if (ctx.api === undefined)
      throw new DocsyncError(
        'SERVICE_NOT_CONFIGURED',
        'check-links needs service.baseUrl and service.token in the configuration',
      );
    const store = new LinkCheckStore(ctx.redis, ctx.config.redis.prefix);
    const broken = await brokenLinksOf(ctx.api, payload.space, payload.changeRequest, ctx.signal);
    const previous = await store.get(payload.space, payload.changeRequest);
    const diff = diffBrokenLinks(previous?.broken ?? [], broken);
    const log = ctx.log.child({
      space: payload.space,
      cr: payload.changeRequest,
      revision: payload.revision,
    });
    for (const link of diff.broken)
      log.warn({ page: link.pagePath ?? link.pageTitle, target: link.target }, 'link broken');
    for (const link of diff.fixed)
      log.info({ page: link.pagePath ?? link.pageTitle, target: link.target }, 'link fixed');
    await store.set(payload.space, payload.changeRequest, {
      at: ctx.now().toISOString(),
      revision: payload.revision,
      broken,
    });
    return {
      result: broken.length === 0 ? 'clean' : 'broken-links',
      broken: broken.length,
      newlyBroken: diff.broken.length,
      fixed: diff.fixed.length,
    };
  },
});
