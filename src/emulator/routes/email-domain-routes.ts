// Organizations by e-mail domain: those of the local service whose `emailDomains` hold the domain
// (compared without case), as a user with an address there would be offered to join.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerOf } from '../access.js';
import type { EmulatorContext } from '../emulator-context.js';
import { badRequest } from '../emulator-http-error.js';
import { renderOrg } from '../render/render-user.js';

const emailDomain = z
  .string()
  .max(253)
  .regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/);

export function registerEmailDomainRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get<{ Params: { emailDomain: string } }>('/v1/email-domains/:emailDomain/orgs', async (request) => {
    const caller = callerOf(request);
    const parsed = emailDomain.safeParse(request.params.emailDomain);
    if (!parsed.success) throw badRequest('emailDomain: an e-mail domain such as example.com');
    const wanted = parsed.data.toLowerCase();
    const organizations = Object.values(ctx.state.orgs)
      .filter((org) => org.emailDomains.some((domain) => domain.toLowerCase() === wanted))
      .sort((a, b) => a.seq - b.seq)
      .map((org) => renderOrg(ctx, caller, org));
    return { organizations };
  });
}
