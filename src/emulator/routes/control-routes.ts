// Routes outside `/v1` that let tests and users steer the local service: faults, request counts,
// the clock, and the download addresses of files.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { callerOf } from '../access.js';
import type { EmulatorClock } from '../emulator-clock.js';
import type { EmulatorContext } from '../emulator-context.js';
import { notFound } from '../emulator-http-error.js';
import { type Faults, faultConfigSchema } from '../faults.js';
import { parseInput } from '../parse-input.js';
import type { RequestCounter } from '../request-counter.js';

const clockBody = z.union([
  z.strictObject({ advanceMs: z.number().min(0) }),
  z.strictObject({ set: z.iso.datetime() }),
]);

export function registerControlRoutes(
  app: FastifyInstance,
  ctx: EmulatorContext,
  tools: { faults: Faults; counter: RequestCounter; clock: EmulatorClock },
): void {
  app.get('/_emulator/faults', async (request) => {
    callerOf(request);
    return tools.faults.config;
  });

  app.put('/_emulator/faults', async (request) => {
    callerOf(request);
    tools.faults.set(parseInput(faultConfigSchema, request.body, 'body'));
    return tools.faults.config;
  });

  app.get('/_emulator/requests', async (request) => {
    callerOf(request);
    return tools.counter.snapshot();
  });

  app.delete('/_emulator/requests', async (request, reply) => {
    callerOf(request);
    tools.counter.reset();
    return reply.code(204).send();
  });

  app.get('/_emulator/clock', async (request) => {
    callerOf(request);
    return { now: ctx.now().toISOString() };
  });

  app.post('/_emulator/clock', async (request) => {
    callerOf(request);
    const body = parseInput(clockBody, request.body, 'body');
    if ('advanceMs' in body) tools.clock.advance(body.advanceMs);
    else tools.clock.set(new Date(body.set));
    return { now: ctx.now().toISOString() };
  });

  // Download addresses of files, as `downloadURL` gives them: unguessable ids, no token needed.
  app.get<{ Params: { revision: string; file: string } }>(
    '/_emulator/files/:revision/:file',
    async (request, reply) => {
      const file = ctx.state.revisions[request.params.revision]?.files.find(
        (item) => item.id === request.params.file,
      );
      if (file === undefined) throw notFound(`file ${request.params.file}`);
      return reply.type(file.contentType).send(Buffer.from(file.data, 'base64'));
    },
  );
}
