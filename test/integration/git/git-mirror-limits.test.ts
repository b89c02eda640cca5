import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitFixture, type GitFixture } from './git-fixture.js';

// A loopback server that accepts connections and never answers: git waits on it until docsync's
// time limit or the caller's signal stops it. Nothing leaves the machine.
let server: Server;
let sockets: Socket[];
let url: string;
let repo: GitFixture;

beforeEach(async () => {
  sockets = [];
  server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  url = `http://user:secret@127.0.0.1:${port}/docs.git`;
  repo = await createGitFixture();
});

afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await repo.cleanup();
});

describe('GitMirror time limits and signals', () => {
  it('kills a fetch that outlives its time limit with a retryable GIT_TIMEOUT', async () => {
    const mirror = repo.mirror({ repo: url, timeoutMs: 300 });
    const started = performance.now();
    const failure = await mirror.fetch().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'GIT_TIMEOUT', retryable: true });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(String((failure as Error).message)).not.toContain('secret');
  });

  it('stops a fetch when the caller aborts', async () => {
    const mirror = repo.mirror({ repo: url, timeoutMs: 20_000 });
    const controller = new AbortController();
    const fetching = mirror.fetch(controller.signal);
    setTimeout(() => controller.abort(), 200);
    await expect(fetching).rejects.toMatchObject({ code: 'GIT_ABORTED' });
  });

  it('does not start a command for an already aborted signal', async () => {
    await repo.publish({}, 'base');
    const mirror = await repo.fetchedMirror();
    await expect(mirror.resolve('main', AbortSignal.abort())).rejects.toMatchObject({ code: 'GIT_ABORTED' });
  });
});
