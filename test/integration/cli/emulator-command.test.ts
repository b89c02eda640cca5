import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-context.js';
import { waitFor } from '../../support/wait-for.js';

const FIRST_LINE = /^docsync emulator: (http:\/\/127\.0\.0\.1:\d+\/v1) organization (org_\w+)\n/;

async function startEmulator(args: string[]) {
  const run = startCli(['emulator', '--port', '0', ...args]);
  const [, baseUrl = '', orgId = ''] =
    FIRST_LINE.exec(
      await waitFor(() => (FIRST_LINE.test(run.stdout()) ? run.stdout() : undefined), 'the first line'),
    ) ?? [];
  return { run, baseUrl, orgId };
}

const call = (url: string, token: string, init: RequestInit = {}) =>
  fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });

describe('docsync emulator', () => {
  it('says where it serves on its first line, keeps its data in --state across restarts, and stops on SIGTERM', async () => {
    const state = join(await tempDir('emulator-state'), 'state.json');
    const first = await startEmulator([
      '--token',
      'demo',
      '--token',
      'Rita=rita-token:review',
      '--state',
      state,
    ]);
    const created = await call(`${first.baseUrl}/orgs/${first.orgId}/spaces`, 'demo', {
      method: 'POST',
      body: JSON.stringify({ title: 'Handbook' }),
    });
    expect(created.status).toBe(201);
    const space = (await created.json()) as { id: string };
    const members = (await (
      await call(`${first.baseUrl}/orgs/${first.orgId}/members`, 'rita-token')
    ).json()) as { items: Array<{ role: string }> };
    expect(members.items.map((member) => member.role).sort()).toEqual(['admin', 'review']);
    first.run.child.kill('SIGTERM');
    expect((await first.run.exited).code).toBe(0);

    const second = await startEmulator(['--token', 'demo', '--state', state]);
    expect(second.orgId).toBe(first.orgId);
    const again = await call(`${second.baseUrl}/spaces/${space.id}`, 'demo');
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: space.id, title: 'Handbook' });
    second.run.child.kill('SIGINT');
    expect((await second.run.exited).code).toBe(0);
  });

  it('refuses a malformed --token or --faults with exit code 2 and one line', async () => {
    const badToken = await runCli([
      'emulator',
      '--port',
      '0',
      '--token',
      'demo',
      '--token',
      'Rita=secret-token:boss',
    ]);
    expect(badToken.code).toBe(2);
    expect(badToken.stderr).toBe(
      'docsync emulator: --token <hidden>: write name=token:role, with role one of admin, create, review, edit, comment, read\n',
    );
    const badFaults = await runCli(['emulator', '--port', '0', '--token', 'demo', '--faults', '429=2']);
    expect(badFaults.code).toBe(2);
    expect(badFaults.stderr).toContain('--faults 429=2: give a rate from 0 to 1');
  });

  it('refuses a state file that is not its own', async () => {
    const dir = await tempDir('emulator-bad-state');
    await writeFile(join(dir, 'state.json'), '{"hello": "world"}');
    const run = await runCli([
      'emulator',
      '--port',
      '0',
      '--token',
      'demo',
      '--state',
      join(dir, 'state.json'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not a version 1 state file of docsync emulator');
  });
});
