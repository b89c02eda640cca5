// The local documentation service as the benchmarks start it: in the bench process, on a loopback
// port, with an admin (and a reviewer), and spaces made through its API as the admin would.
import { pino } from 'pino';
import { createEmulator, type Emulator } from '../src/emulator/create-emulator.js';
import type { Logger } from '../src/log/create-logger.js';

export const BENCH_ADMIN_TOKEN = 'bench-admin-token';
export const BENCH_REVIEWER_TOKEN = 'bench-reviewer-token';

export interface BenchService {
  emulator: Emulator;
  /** Such as http://127.0.0.1:41234/v1. */
  baseUrl: string;
  /** A new space of the organization, made by the admin; its id. */
  createSpace(title: string): Promise<string>;
  close(): Promise<void>;
}

/** `prepare` runs before it listens, where hooks on its routes go. */
export async function startBenchService(
  options: { log?: Logger; prepare?: (emulator: Emulator) => void } = {},
): Promise<BenchService> {
  const emulator = await createEmulator({
    members: [
      { name: 'Admin', token: BENCH_ADMIN_TOKEN, role: 'admin' },
      { name: 'Rita Reviewer', token: BENCH_REVIEWER_TOKEN, role: 'review' },
    ],
    log: options.log ?? pino({ level: 'silent' }),
  });
  options.prepare?.(emulator);
  const baseUrl = `${await emulator.listen('127.0.0.1', 0)}/v1`;
  return {
    emulator,
    baseUrl,
    async createSpace(title) {
      const answer = await fetch(`${baseUrl}/orgs/${emulator.orgId}/spaces`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      if (answer.status !== 201) throw new Error(`bench: creating a space answered ${answer.status}`);
      return ((await answer.json()) as { id: string }).id;
    },
    close: () => emulator.close(),
  };
}
