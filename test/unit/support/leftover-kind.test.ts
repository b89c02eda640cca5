import { describe, expect, it } from 'vitest';
import { leftoverKind } from '../../support/leftover-processes.js';

const proc = (comm: string, ...argv: string[]) => ({ pid: 42, comm, argv });

describe('leftoverKind', () => {
  it('knows a redis-server by its name, though it rewrites its command line', () => {
    expect(leftoverKind(proc('redis-server', 'redis-server 127.0.0.1:41234'))).toBe('redis-server');
    expect(leftoverKind(proc('redis-serv', '/usr/bin/redis-server', '--port', '1'))).toBe('redis-server');
  });

  it('knows docsync run from dist, from the sources, from the test fixture, or by npm start', () => {
    expect(leftoverKind(proc('node', '/usr/bin/node', '/repo/dist/src/cli/bin.js', 'start'))).toBe('docsync');
    expect(leftoverKind(proc('node', '/usr/bin/node', '/repo/dist/bundle/bin.js', 'start'))).toBe('docsync');
    expect(leftoverKind(proc('node', 'node', '--import', 'tsx', 'src/cli/bin.ts', 'once'))).toBe('docsync');
    expect(leftoverKind(proc('node', 'node', '/repo/test/fixtures/start-with-slow-job.mjs'))).toBe('docsync');
    expect(leftoverKind(proc('npm start', 'npm', 'start', '--ignore-scripts'))).toBe('docsync');
    expect(leftoverKind(proc('node', 'node', '/usr/lib/node_modules/npm/bin/npm-cli.js', 'start'))).toBe(
      'docsync',
    );
  });

  it('leaves alone the test workers and the tools the tests run', () => {
    expect(
      leftoverKind(proc('node', 'node', '/repo/node_modules/vitest/dist/workers/forks.js')),
    ).toBeUndefined();
    expect(leftoverKind(proc('git', 'git', 'fetch', '/tmp/docsync-git-1/remote.git'))).toBeUndefined();
    expect(
      leftoverKind(proc('node', 'node', '/usr/lib/node_modules/npm/bin/npm-cli.js', 'ci')),
    ).toBeUndefined();
  });
});
