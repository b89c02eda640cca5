import { describe, expect, it } from 'vitest';
import { sshCommand } from '../../../src/git/ssh-credentials.js';
import { keyProblem } from '../../../src/git/ssh-key-files.js';

const OPENSSH_KEY =
  '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';

describe('keyProblem', () => {
  it('takes an OpenSSH or PEM private key of mode 0600', () => {
    expect(keyProblem(OPENSSH_KEY, 0o100600, true)).toBeUndefined();
    expect(
      keyProblem('-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n', 0o400, true),
    ).toBeUndefined();
    expect(
      keyProblem('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n', 0o600, true),
    ).toBeUndefined();
  });

  it('refuses a public key, saying to give the private one', () => {
    expect(keyProblem('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB docs@ci\n', 0o600, true)).toBe(
      'is a public key: give the private key (the file without .pub)',
    );
  });

  it('refuses a file that is not a key', () => {
    expect(keyProblem('github.com ssh-ed25519 AAAAC3Nza\n', 0o600, true)).toMatch(/^is not a private key/);
    expect(keyProblem('', 0o600, true)).toMatch(/^is not a private key/);
  });

  it('refuses a key of its own user that others may read, as ssh does, saying how to fix it', () => {
    expect(keyProblem(OPENSSH_KEY, 0o100644, true)).toBe(
      'can be read by other users (mode 0644), and ssh refuses such a key: chmod 600 it, or give its Kubernetes Secret volume defaultMode: 0400',
    );
    // ssh judges only its own user's files: a Secret volume owned by root with group read is used.
    expect(keyProblem(OPENSSH_KEY, 0o100440, false)).toBeUndefined();
  });
});

describe('sshCommand', () => {
  it('offers the key alone, trusts the known hosts file alone and never asks', () => {
    expect(sshCommand('/keys/id_ed25519', '/keys/known_hosts')).toBe(
      'ssh -o \'IdentityFile="/keys/id_ed25519"\' -o IdentitiesOnly=yes -o \'UserKnownHostsFile="/keys/known_hosts"\' -o GlobalKnownHostsFile=/dev/null -o StrictHostKeyChecking=yes -o BatchMode=yes -o PasswordAuthentication=no',
    );
  });

  it("quotes spaces, quotes and ssh's % tokens", () => {
    const command = sshCommand("/k/it's a key%h", '/k/known "hosts"');

    // The shell gives ssh `IdentityFile="/k/it\'s a key%%h"`; ssh reads /k/it's a key%h.
    expect(command).toContain(`-o 'IdentityFile="/k/it\\'\\''s a key%%h"'`);
    expect(command).toContain(`-o 'UserKnownHostsFile="/k/known \\"hosts\\""'`);
  });
});
