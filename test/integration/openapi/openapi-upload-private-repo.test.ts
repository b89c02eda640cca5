// `docsync openapi upload` of a spec read from a mapped repository that is private: the mirror it
// reads through gets the mapping's `git.auth`, as the daemon's and `docsync once`'s do, and the
// token shows in no output.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openApiUploadCommand } from '../../../src/cli/openapi-upload-command.js';
import { startGitHttpServer } from '../../support/git-http-server.js';
import { createTestRepo } from '../../support/git-repos.js';
import { startTestEmulator } from '../../support/start-test-emulator.js';
import { tempDir } from '../../support/test-context.js';

const TOKEN = 'ghp_openApiPrivateToken_0123456789abcdef';
const USER = 'x-access-token';
const SPEC =
  "openapi: 3.0.3\ninfo: { title: Pets, version: '1' }\npaths:\n  /pets:\n    get:\n      responses:\n        '200': { description: ok }\n";

function collected(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { stream, text: () => text };
}

describe('docsync openapi upload from a private repository (git.auth)', () => {
  it("reads the spec through the mapping's token", async () => {
    const emulator = await startTestEmulator();
    const repo = await createTestRepo();
    await repo.commit({ 'api/openapi.yaml': SPEC, 'docs/README.md': '# Docs\n' }, 'spec');
    await repo.push();
    const server = await startGitHttpServer({ root: dirname(repo.remote), username: USER, tokens: [TOKEN] });
    const dir = await tempDir('openapi-private');
    const config = join(dir, 'docsync.yaml');
    await writeFile(
      config,
      `dataDir: ${join(dir, 'data')}
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
mappings:
  - name: docs
    space: space-1
    git: { repo: "${server.url('remote')}", branch: main, dir: docs, auth: { tokenEnv: DOCS_GIT_TOKEN } }
openapi:
  - { org: ${emulator.orgId}, slug: pets, every: 1h, source: { mapping: docs, path: api/openapi.yaml } }
`,
    );
    const stdout = collected();
    const stderr = collected();
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, DOCS_GIT_TOKEN: TOKEN };

    const code = await openApiUploadCommand(
      { config, slug: 'pets', json: true },
      { stdout: stdout.stream, stderr: stderr.stream, env, cwd: dir },
    );

    expect({ code, out: stdout.text() + stderr.text() }).toEqual({
      code: 0,
      out: expect.stringContaining('"result":"uploaded"'),
    });
    expect(server.requests.some((request) => request.authenticated && request.status === 200)).toBe(true);
    expect(`${stdout.text()}${stderr.text()}`).not.toContain(TOKEN);
  });
});
