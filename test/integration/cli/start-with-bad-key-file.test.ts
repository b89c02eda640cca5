// `docsync start` whose `git.auth` names a key file that cannot be used (not a key, a GitHub App key
// missing): it refuses at once with exit 2 and one line naming the mapping and the setting, before
// it listens or starts a redis-server, rather than fail each fetch later.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-context.js';

async function startWithAuth(auth: string, repo: string) {
  const dir = await tempDir('start-bad-key');
  await writeFile(join(dir, 'not-a-key'), 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA just a public key\n', {
    mode: 0o600,
  });
  await writeFile(join(dir, 'known_hosts'), '[127.0.0.1]:2222 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA\n');
  const file = join(dir, 'docsync.yaml');
  await writeFile(
    file,
    `dataDir: ${join(dir, 'data')}
http: { listen: 127.0.0.1:0 }
service: { baseUrl: "http://127.0.0.1:9/v1", token: t }
mappings:
  - name: private-docs
    space: space_1
    git: { repo: "${repo}", branch: main, auth: ${auth} }
`,
  );
  return runCli(['start', '--config', file], { cwd: dir });
}

describe('docsync start with a key file of git.auth that cannot be used', () => {
  it('exits 2 naming the mapping and sshKeyFile when the file is not a private key', async () => {
    const { code, stdout, stderr } = await startWithAuth(
      '{ sshKeyFile: not-a-key, knownHostsFile: known_hosts }',
      'ssh://git@127.0.0.1:2222/acme/docs.git',
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/^docsync: mapping private-docs: .*sshKeyFile/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).not.toContain('http server listening');
    expect(stdout).not.toContain('embedded redis-server');
  });

  it('exits 2 naming privateKeyFile when the GitHub App key is missing', async () => {
    const { code, stdout, stderr } = await startWithAuth(
      '{ githubApp: { appId: 1, installationId: 2, privateKeyFile: app.pem } }',
      'https://github.com/acme/docs.git',
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/^docsync: mapping private-docs: .*privateKeyFile/);
    expect(stdout).not.toContain('http server listening');
  });
});
