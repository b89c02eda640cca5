// The local documentation service: the service's whole interface (docs/architecture.md) over real
// HTTP, in memory (or kept in a state file), with injectable faults and clock. `docsync emulator` runs it
// on its own; tests and the demo run it in-process.
import { timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  LogController,
} from 'fastify';
import type { Logger } from '../log/create-logger.js';
import { EmulatorClock } from './emulator-clock.js';
import type { EmulatorContext, EmulatorLimits, Membership } from './emulator-context.js';
import { EmulatorHttpError, errorBody } from './emulator-http-error.js';
import { type EmulatorState, emptyState } from './emulator-state.js';
import { type FaultConfig, Faults } from './faults.js';
import { RequestCounter } from './request-counter.js';
import type { Role } from './roles.js';
import { registerControlRoutes } from './routes/control-routes.js';
import { ROUTE_GROUPS } from './routes/route-groups.js';
import {
  type EmulatorOrganizationSpec,
  ensureDefaultOrganization,
  ensureOrganization,
} from './seed-organizations.js';
import { readStateFile, writeStateFile } from './state-file.js';
import { userIdOf } from './user-id-of.js';

export type { EmulatorOrganizationSpec, EmulatorOrgMemberSpec } from './seed-organizations.js';
export { userIdOf } from './user-id-of.js';

export interface EmulatorMemberSpec {
  name: string;
  token: string;
  role: Role;
}

export interface EmulatorOptions {
  /** The first is the default organization's admin; the others are its members with their roles. */
  members: readonly EmulatorMemberSpec[];
  /**
   * Further organizations, each with its own members (by name: the users of `members` call with their
   * tokens; other names are members without a token) and roles. None unless given.
   */
  organizations?: readonly EmulatorOrganizationSpec[];
  log: Logger;
  statePath?: string;
  faults?: FaultConfig;
  clock?: EmulatorClock;
  limits?: Partial<EmulatorLimits>;
}

export interface Emulator {
  app: FastifyInstance;
  /** The default organization, whose admin is the first member. */
  orgId: string;
  /** The ids of `options.organizations`, in their order. */
  organizationIds: readonly string[];
  state: EmulatorState;
  clock: EmulatorClock;
  faults: Faults;
  counter: RequestCounter;
  /** Listens and answers the origin, such as http://127.0.0.1:4010. */
  listen(host: string, port: number): Promise<string>;
  close(): Promise<void>;
}

const DEFAULT_LIMITS: EmulatorLimits = {
  fetchMaxBytes: 50 * 1024 * 1024,
  fetchTimeoutMs: 30_000,
  restoreDays: 7,
};
const SAVE_DELAY_MS = 50;
/** A forced fault's HTML answer (`html: true`): what a failing proxy in front of a service sends. */
const INJECTED_ERROR_PAGE =
  '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>injected fault</p></body></html>';

export async function createEmulator(options: EmulatorOptions): Promise<Emulator> {
  if (options.members.length === 0) throw new Error('the local service needs at least one token');
  const state =
    (options.statePath === undefined ? undefined : await readStateFile(options.statePath)) ?? emptyState();
  const seededAt = new Date().toISOString();
  const orgId = ensureDefaultOrganization(state, options.members, seededAt).id;
  const organizationIds = (options.organizations ?? []).map(
    (spec) => ensureOrganization(state, spec, seededAt, orgId).id,
  );
  const clock = options.clock ?? new EmulatorClock();
  const faults = new Faults(options.faults);
  const counter = new RequestCounter();
  let origin = 'http://127.0.0.1';
  let saveTimer: NodeJS.Timeout | undefined;
  let saving: Promise<void> = Promise.resolve();
  const save = () => {
    if (options.statePath === undefined) return;
    const path = options.statePath;
    saving = saving
      .then(() => writeStateFile(path, state))
      .catch((error: unknown) => options.log.error({ err: error }, 'emulator state could not be written'));
  };
  const tasks = new Set<Promise<unknown>>();
  const ctx: EmulatorContext = {
    state,
    now: clock.now,
    origin: () => origin,
    changed: () => {
      if (options.statePath === undefined || saveTimer !== undefined) return;
      saveTimer = setTimeout(() => {
        saveTimer = undefined;
        save();
      }, SAVE_DELAY_MS);
    },
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    log: options.log,
    background: (task) => {
      tasks.add(task);
      void task.finally(() => tasks.delete(task));
    },
  };

  const loggerInstance: FastifyBaseLogger = options.log;
  const app = Fastify({
    loggerInstance,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 20 * 1024 * 1024,
  });
  registerRequestHook(app, { state, members: options.members, faults, counter });
  registerErrorHandlers(app);
  for (const register of ROUTE_GROUPS) register(app, ctx);
  registerControlRoutes(app, ctx, { faults, counter, clock });

  return {
    app,
    orgId,
    organizationIds,
    state,
    clock,
    faults,
    counter,
    async listen(host, port) {
      const address = await app.listen({ host, port });
      origin = address;
      return address;
    },
    async close() {
      await app.close();
      await Promise.allSettled([...tasks]);
      clearTimeout(saveTimer);
      save();
      await saving;
    },
  };
}

/**
 * Every request: counted (under /v1), its bearer token matched (in constant time) to a member,
 * then, under /v1, the faults injected and a request without a valid token refused.
 */
function registerRequestHook(
  app: FastifyInstance,
  on: { state: EmulatorState; members: EmulatorOptions['members']; faults: Faults; counter: RequestCounter },
): void {
  const { state, faults, counter } = on;
  const tokens = on.members.map((member) => ({
    token: Buffer.from(member.token),
    userId: userIdOf(member.name),
  }));

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const route = request.routeOptions.url;
    if (path.startsWith('/v1/')) counter.count(request.method, route ?? path);
    const header = request.headers.authorization ?? '';
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7) : '');
    const found = tokens.find(
      (entry) => entry.token.length === given.length && timingSafeEqual(entry.token, given),
    );
    const user = found === undefined ? undefined : state.users[found.userId];
    const memberships = user === undefined ? [] : membershipsOf(state, user.id);
    if (user !== undefined && memberships.length > 0) request.caller = { user, memberships };
    if (!path.startsWith('/v1/')) return;
    const decision = faults.decide(request.method, path);
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    if (decision.answer !== undefined) {
      const { status, retryAfterSeconds, html } = decision.answer;
      if (retryAfterSeconds !== undefined) void reply.header('retry-after', String(retryAfterSeconds));
      if (html === true) return reply.code(status).type('text/html').send(INJECTED_ERROR_PAGE);
      return reply
        .code(status)
        .send(
          errorBody(
            status,
            status === 429 ? 'rate limited (injected fault)' : 'service unavailable (injected fault)',
          ),
        );
    }
    if (request.caller === undefined) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send(errorBody(401, 'a valid bearer token is required'));
    }
    return undefined;
  });
}

/** The service's error bodies: for its own errors, Fastify's, and a path no route serves. */
function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | EmulatorHttpError, request, reply) => {
    if (error instanceof EmulatorHttpError) {
      return reply.code(error.status).headers(error.headers).send(errorBody(error.status, error.message));
    }
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status === 500) request.log.error({ err: error }, 'emulator request failed');
    const message =
      status === 500
        ? 'internal error of the local service'
        : error.code?.startsWith('FST_ERR_CTP')
          ? `malformed request body: ${error.message}`
          : error.message;
    return reply.code(status).send(errorBody(status, message));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody(404, `no endpoint ${request.method} ${request.url.split('?')[0]}`)),
  );
}

/** The organizations a user is an enabled member of, oldest first. */
function membershipsOf(state: EmulatorState, userId: string): Membership[] {
  return Object.values(state.orgs)
    .sort((a, b) => a.seq - b.seq)
    .flatMap((org) => {
      const member = org.members[userId];
      return member === undefined || member.disabled ? [] : [{ org, member }];
    });
}
