// Every group of `/v1` routes the local service serves.
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../emulator-context.js';
import { registerChangeRequestPageRoute } from './change-request-page-route.js';
import { registerChangeRequestRoutes } from './change-request-routes.js';
import { registerCollectionRoutes } from './collection-routes.js';
import { registerCommentRoutes } from './comment-routes.js';
import { registerContentRoutes } from './content-routes.js';
import { registerCustomFieldRoutes } from './custom-field-routes.js';
import { registerEmailDomainRoutes } from './email-domain-routes.js';
import { registerLinkInviteRoutes } from './link-invite-routes.js';
import { registerOpenApiRoutes } from './openapi-routes.js';
import { registerOrgRoutes } from './org-routes.js';
import { registerPdfRoute } from './pdf-route.js';
import { registerReviewRoutes } from './review-routes.js';
import { registerSamlRoutes } from './saml-routes.js';
import { registerSearchRoutes } from './search-routes.js';
import { registerSiteRoutes } from './site-routes.js';
import { registerSiteSectionGroupRoutes } from './site-section-group-routes.js';
import { registerSiteSectionRoutes } from './site-section-routes.js';
import { registerSiteSpaceRoutes } from './site-space-routes.js';
import { registerSpaceMoveRoutes } from './space-move-routes.js';
import { registerSpaceRoutes } from './space-routes.js';
import { registerTeamRoutes } from './team-routes.js';
import { registerTranslationRoutes } from './translation-routes.js';

export const ROUTE_GROUPS: ReadonlyArray<(app: FastifyInstance, ctx: EmulatorContext) => void> = [
  registerOrgRoutes,
  registerSpaceRoutes,
  registerContentRoutes,
  registerChangeRequestRoutes,
  registerSearchRoutes,
  registerPdfRoute,
  registerCommentRoutes,
  registerReviewRoutes,
  registerOpenApiRoutes,
  registerCollectionRoutes,
  registerTeamRoutes,
  registerCustomFieldRoutes,
  registerLinkInviteRoutes,
  registerEmailDomainRoutes,
  registerSpaceMoveRoutes,
  registerSamlRoutes,
  registerTranslationRoutes,
  registerSiteRoutes,
  registerSiteSectionRoutes,
  registerSiteSectionGroupRoutes,
  registerSiteSpaceRoutes,
  // Outside /v1: the page a change request's `urls.app` opens in a browser.
  registerChangeRequestPageRoute,
];
