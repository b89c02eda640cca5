// Every group of `/v1` routes the local service serves.
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../emulator-context.js';
import { registerChangeRequestRoutes } from './change-request-routes.js';
import { registerCommentRoutes } from './comment-routes.js';
import { registerContentRoutes } from './content-routes.js';
import { registerOpenApiRoutes } from './openapi-routes.js';
import { registerOrgRoutes } from './org-routes.js';
import { registerPdfRoute } from './pdf-route.js';
import { registerReviewRoutes } from './review-routes.js';
import { registerSearchRoutes } from './search-routes.js';
import { registerSpaceRoutes } from './space-routes.js';

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
];
