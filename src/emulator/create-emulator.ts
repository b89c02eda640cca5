// The local documentation service: the service's whole interface (docs/architecture.md) over real
// HTTP, in memory (or kept in a state file), with injectable faults and clock. `docsync emulator` runs it
// on its own; tests and the demo run it in-process.
import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  LogController,
} from 'fastify';
import type { Logger } from '../log/create-logger.js';
import { EmulatorClock } from './emulator-clock.js';
import type { EmulatorContext, EmulatorLimits } from './emulator-context.js';
import { EmulatorHttpError } from './emulator-http-error.js';
import { type EmulatorState, emptyState, nextSeq } from './emulator-state.js';
import { type FaultConfig, Faults } from './faults.js';
import { newId } from './ids.js';
import { RequestCounter } from './request-counter.js';
import type { Role } from './roles.js';
import { registerControlRoutes } from './routes/control-routes.js';
import { ROUTE_GROUPS } from './routes/route-groups.js';
import { readStateFile, writeStateFile } from './state-file.js';

export interface EmulatorMemberSpec {
  name: string;
  token: string;
  role: Role;
}

export interface EmulatorOptions {
  /** The first is the organization's admin; the others are members with their roles. */
  members: readonly EmulatorMemberSpec[];
  log: Logger;
  statePath?: string;
  faults?: FaultConfig;
  clock?: EmulatorClock;
  limits?: Partial<EmulatorLimits>;
}

export interface Emulator {
  app: FastifyInstance;
  orgId: string;
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

export async function createEmulator(options: EmulatorOptions): Promise<Emulator> {
  if (options.members.length === 0) throw new Error('the local service needs at least one token');
  const state =
    (options.statePath === undefined ? undefined : await readStateFile(options.statePath)) ?? emptyState();
  const orgId = ensureOrganization(state, options.members, new Date().toISOString());
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
  const tokens = options.members.map((member) => ({
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
    const org = state.orgs[orgId];
    const member = found === undefined ? undefined : org?.members[found.userId];
    const user = found === undefined ? undefined : state.users[found.userId];
    if (org !== undefined && member !== undefined && user !== undefined && !member.disabled)
      request.caller = { user, org, member };
    if (!path.startsWith('/v1/')) return;
    const decision = faults.decide(request.method, path);
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    if (decision.answer !== undefined) {
      const { status, retryAfterSeconds } = decision.answer;
      if (retryAfterSeconds !== undefined) void reply.header('retry-after', String(retryAfterSeconds));
      return reply.code(status).send({
        error: {
          code: status,
          message: status === 429 ? 'rate limited (injected fault)' : 'service unavailable (injected fault)',
        },
      });
    }
    if (request.caller === undefined) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send({ error: { code: 401, message: 'a valid bearer token is required' } });
    }
    return undefined;
  });

  app.setErrorHandler((error: FastifyError | EmulatorHttpError, request, reply) => {
    if (error instanceof EmulatorHttpError) {
      return reply
        .code(error.status)
        .headers(error.headers)
        .send({ error: { code: error.status, message: error.message } });
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
    return reply.code(status).send({ error: { code: status, message } });
  });
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ error: { code: 404, message: `no endpoint ${request.method} ${request.url.split('?')[0]}` } }),
  );
  for (const register of ROUTE_GROUPS) register(app, ctx);
  registerControlRoutes(app, ctx, { faults, counter, clock });

  return {
    app,
    orgId,
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

/** Ids of users are derived from their names, so that a state file matches the same tokens again. */
export function userIdOf(name: string): string {
  return `usr_${createHash('sha256').update(name).digest('base64url').replace(/[-_]/g, '').slice(0, 14)}`;
}

function ensureOrganization(
  state: EmulatorState,
  members: readonly EmulatorMemberSpec[],
  now: string,
): string {
  let org = Object.values(state.orgs)[0];
  if (org === undefined) {
    org = {
      id: newId('org_'),
      seq: nextSeq(state),
      title: 'Local docs',
      createdAt: now,
      emailDomains: [],
      defaultRole: 'read',
      inviteLinks: false,
      sso: false,
      ai: false,
      members: {},
    };
    state.orgs[org.id] = org;
  }
  for (const [index, spec] of members.entries()) {
    const userId = userIdOf(spec.name);
    state.users[userId] ??= {
      id: userId,
      displayName: spec.name,
      email: `${spec.name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@local.test`,
    };
    const role = index === 0 ? 'admin' : spec.role;
    const existing = org.members[userId];
    if (existing === undefined) {
      org.members[userId] = { userId, role, joinedAt: now, disabled: false, sso: false, seq: nextSeq(state) };
    } else {
      existing.role = role;
    }
  }
  return org.id;
}
