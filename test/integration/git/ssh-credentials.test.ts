// `git.auth: { sshKeyFile, knownHostsFile }` against a private sshd the test starts (its own host
// key, config and authorized keys, as the current user), in folders whose names need quoting: a
// fetch through the built GIT_SSH_COMMAND, a host key that is not the known one refused, and the
// key files checked before git ever runs. Skipped where Debian's openssh-server is not installed.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EnvironmentError } from '../../../src/errors/environment-error.js';
import { GitError } from '../../../src/git/git-error.js';
import { GitMirror } from '../../../src/git/git-mirror.js';
import { sshCredentials } from '../../../src/git/ssh-credentials.js';
import { findFreePort } from '../../../src/net/find-free-port.js';
import { failureHint } from '../../../src/state/failure-hint.js';
import { closeAfter } from '../../support/close-after.js';
import { createTestRepo } from '../../support/git-repos.js';
import { captureLog, tempDir } from '../../support/test-context.js';

const run = promisify(execFile);
const SSHD = '/usr/sbin/sshd';

/** A folder whose name needs quoting by the shell and by ssh (a space, a quote, a %). */
async function awkwardDir(): Promise<string> {
  const dir = join(await tempDir('ssh'), `it's 100% keys`);
  await mkdir(dir);
  return dir;
}

async function keyPair(dir: string, name: string): Promise<{ key: string; pub: string }> {
  const key = join(dir, name);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', key]);
  return { key, pub: (await readFile(`${key}.pub`, 'utf8')).trim() };
}

async function startSshd(dir: string, authorized: string): Promise<{ port: number; hostPub: string }> {
  const host = await keyPair(dir, 'host_key');
  await writeFile(join(dir, 'authorized_keys'), `${authorized}\n`);
  const port = await findFreePort();
  const config = join(dir, 'sshd_config');
  await writeFile(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey "${host.key}"`,
      `AuthorizedKeysFile "${join(dir, 'authorized_keys').replaceAll('%', '%%')}"`,
      'StrictModes no',
      'PidFile none',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      '',
    ].join('\n'),
  );
  // sshd started by root wants its privilege separation folder, which a package install in a
  // container may not have made.
  if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const sshd: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  sshd.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  closeAfter(() => {
    sshd.kill('SIGTERM');
  });
  await listening(port, sshd, () => output);
  return { port, hostPub: host.pub };
}

/** Resolves once `port` takes a connection; rejects when sshd exits first. */
async function listening(port: number, sshd: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (sshd.exitCode !== null) throw new Error(`sshd exited: ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd did not listen on ${port}: ${output()}`);
}

async function sshRemote() {
  const dir = await awkwardDir();
  const client = await keyPair(dir, 'id_ed25519');
  const { port, hostPub } = await startSshd(dir, client.pub);
  const knownHosts = join(dir, 'known hosts');
  await writeFile(knownHosts, `[127.0.0.1]:${port} ${hostPub}\n`);
  const repo = await createTestRepo();
  const sha = await repo.commit({ 'docs/README.md': '# Docs\n' }, 'docs');
  await repo.push();
  const url = `ssh://${userInfo().username}@127.0.0.1:${port}${repo.remote}`;
  const env = { PATH: process.env.PATH, HOME: dir };
  const mirror = (knownHostsFile: string) =>
    new GitMirror({
      repo: url,
      dir: join(dir, 'mirror.git'),
      log: captureLog().log,
      env,
      credentials: sshCredentials({ kind: 'ssh', sshKeyFile: client.key, knownHostsFile }),
    });
  return { dir, sha, mirror, knownHosts };
}

describe.skipIf(!existsSync(SSHD))('an SSH key of git.auth, against a local sshd', () => {
  it('fetches through the ssh command docsync builds, paths with spaces, quotes and % included', async () => {
    const { sha, mirror, knownHosts } = await sshRemote();

    const fetched = mirror(knownHosts);
    await fetched.fetch();

    expect(await fetched.resolve('main')).toBe(sha);
  });

  it('refuses a remote whose host key is not in the known hosts file, naming that file', async () => {
    const { dir, mirror } = await sshRemote();
    const other = await keyPair(dir, 'other_host_key');
    const wrongHosts = join(dir, 'wrong_known_hosts');
    // Any host, another key: what a changed (or spoofed) host key looks like.
    await writeFile(wrongHosts, `* ${other.pub}\n`);

    const error = await mirror(wrongHosts)
      .fetch()
      .catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(GitError);
    expect(error).toMatchObject({ code: 'GIT_AUTH', credentials: { setting: 'git.auth.sshKeyFile' } });
    expect(failureHint(error, { mapping: { name: 'docs', space: 's1' } })).toMatch(
      /^the remote's host key is not in git\.auth\.knownHostsFile of mapping docs/,
    );
  });
});

describe('the key files of git.auth.sshKeyFile, checked before git runs', () => {
  async function check(keyText: string | undefined, mode: number, knownHosts = '* ssh-ed25519 AAAA\n') {
    const dir = await awkwardDir();
    const key = join(dir, 'id_ed25519');
    if (keyText !== undefined) {
      await writeFile(key, keyText);
      await chmod(key, mode);
    }
    const hosts = join(dir, 'known_hosts');
    await writeFile(hosts, knownHosts);
    try {
      sshCredentials({ kind: 'ssh', sshKeyFile: key, knownHostsFile: hosts });
      return undefined;
    } catch (error) {
      if (!(error instanceof EnvironmentError)) throw error;
      expect(error.code).toBe('GIT_AUTH_KEY_INVALID');
      return error.message.replace(dir, '<dir>');
    }
  }
  const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbg==\n-----END OPENSSH PRIVATE KEY-----\n';

  it('takes a private key of mode 0600 and a known hosts file with a key', async () => {
    expect(await check(KEY, 0o600)).toBeUndefined();
  });

  it('refuses a missing file, a file that is not a key, a key others may read, and an empty known hosts file', async () => {
    expect(await check(undefined, 0o600)).toBe(
      "git.auth.sshKeyFile: <dir>/id_ed25519 cannot be read (ENOENT): check the path, and that docsync's user may read it",
    );
    expect(await check('not a key\n', 0o600)).toMatch(
      /^git\.auth\.sshKeyFile: <dir>\/id_ed25519 is not a private key/,
    );
    if (process.getuid !== undefined)
      expect(await check(KEY, 0o644)).toMatch(/can be read by other users \(mode 0644\).*chmod 600/);
    expect(await check(KEY, 0o600, '# nothing yet\n')).toMatch(
      /^git\.auth\.knownHostsFile: .* holds no host key/,
    );
  });
});
