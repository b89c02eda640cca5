// `docsync emulator`: the local documentation service on its own, for tests, the demo, and users
// who want to try their docs pipeline offline. Its first line says where it serves and which
// organization; SIGINT or SIGTERM stop it (and write the state file, when one is given).
import { resolve } from 'node:path';
import {
  createEmulator,
  type EmulatorMemberSpec,
  type EmulatorOrganizationSpec,
} from '../emulator/create-emulator.js';
import { parseFaultSpec } from '../emulator/faults.js';
import { isRole } from '../emulator/roles.js';
import { DocsyncError } from '../errors/docsync-error.js';
import { Shutdown } from '../lifecycle/shutdown.js';
import { createLogger, type LogLevel } from '../log/create-logger.js';
import type { CliIo } from './cli-io.js';
import { EXIT } from './exit-codes.js';

export interface EmulatorFlags {
  port: string;
  host: string;
  token: string[];
  /** Further organizations: `Title=Name:role,Name:role`, repeatable. */
  org: string[];
  state?: string;
  faults?: string;
  logLevel: LogLevel;
}

export async function emulatorCommand(flags: EmulatorFlags, io: CliIo): Promise<number> {
  let members: EmulatorMemberSpec[];
  let organizations: EmulatorOrganizationSpec[];
  let faults: ReturnType<typeof parseFaultSpec> | undefined;
  const port = Number(flags.port);
  try {
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`--port ${flags.port}: give a port from 0 to 65535`);
    members = parseTokens(flags.token);
    organizations = flags.org.map(parseOrganization);
    faults = flags.faults === undefined ? undefined : parseFaultSpec(flags.faults);
  } catch (error) {
    io.stderr.write(`docsync emulator: ${(error as Error).message}\n`);
    return EXIT.invalid;
  }
  const log = createLogger({ level: flags.logLevel });
  const shutdown = new Shutdown({ log, timeoutMs: 10_000 });
  try {
    const emulator = await createEmulator({
      members,
      ...(organizations.length === 0 ? {} : { organizations }),
      log,
      ...(flags.state === undefined ? {} : { statePath: resolve(io.cwd, flags.state) }),
      ...(faults === undefined ? {} : { faults }),
    });
    shutdown.add('emulator', () => emulator.close());
    shutdown.listen();
    const origin = await emulator.listen(flags.host, port);
    io.stdout.write(`docsync emulator: ${origin}/v1 organization ${emulator.orgId}\n`);
    for (const [index, id] of emulator.organizationIds.entries())
      io.stdout.write(`docsync emulator: organization ${id} (${organizations[index]?.title})\n`);
    return EXIT.ok;
  } catch (error) {
    io.stderr.write(
      `docsync emulator: ${error instanceof DocsyncError || error instanceof Error ? error.message : String(error)}\n`,
    );
    await shutdown.run('start failed', EXIT.invalid);
    return EXIT.invalid;
  }
}

/** `--token demo` (the admin) then `--token name=token:role` for each further member. */
export function parseTokens(values: readonly string[]): EmulatorMemberSpec[] {
  if (values.length === 0) throw new Error('give at least one --token: the first is the organization admin');
  return values.map((value, index) => {
    const equals = value.indexOf('=');
    const colon = value.lastIndexOf(':');
    if (index === 0 && equals === -1) return { name: 'Admin', token: value, role: 'admin' };
    const name = value.slice(0, equals);
    const token = value.slice(equals + 1, colon);
    const role = value.slice(colon + 1);
    if (equals < 1 || colon <= equals + 1 || !isRole(role)) {
      throw new Error(
        `--token ${index === 0 ? value : '<hidden>'}: write name=token:role, with role one of admin, create, review, edit, comment, read`,
      );
    }
    return { name, token, role };
  });
}

/**
 * `--org 'Partner docs=Admin:admin,Rita:read'`: a further organization, its title, then its members by
 * the names of `--token` (or names without a token) with their role there.
 */
export function parseOrganization(value: string): EmulatorOrganizationSpec {
  const equals = value.indexOf('=');
  const title = value.slice(0, equals).trim();
  const entries = equals === -1 ? [] : value.slice(equals + 1).split(',');
  const problem = `--org ${value}: write Title=Name:role,Name:role, with a title of 2 to 255 characters and role one of admin, create, review, edit, comment, read`;
  if (title.length < 2 || title.length > 255 || entries.length === 0) throw new Error(problem);
  return {
    title,
    members: entries.map((entry) => {
      const colon = entry.lastIndexOf(':');
      const name = entry.slice(0, colon).trim();
      const role = entry.slice(colon + 1).trim();
      if (colon < 1 || name === '' || !isRole(role)) throw new Error(problem);
      return { name, role };
    }),
  };
}
