// docsync's Lua scripts of BullMQ's keys are files named `<name>-<keyCount>.lua`, read when their
// module loads: every script docsync calls is there with the key count it is called with, and a
// folder that lost one, holds another, or disagrees on a count is refused with the file named.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BULLMQ_SCRIPT_DIR,
  BULLMQ_SCRIPT_KEYS,
  loadBullmqScripts,
} from '../../../src/queue/bullmq-internals/bullmq-scripts.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A copy of lua/ in a temp folder, as a URL ending in `/`. */
async function copyOfScripts(): Promise<{ path: string; url: URL }> {
  const path = await mkdtemp(join(tmpdir(), 'docsync-lua-'));
  dirs.push(path);
  for (const [name, keys] of Object.entries(BULLMQ_SCRIPT_KEYS))
    await copyFile(
      join(fileURLToPath(BULLMQ_SCRIPT_DIR), `${name}-${keys}.lua`),
      join(path, `${name}-${keys}.lua`),
    );
  return { path, url: pathToFileURL(`${path}/`) };
}

describe("docsync's Lua scripts of BullMQ's keys", () => {
  it('loads every script docsync calls, with the key count of its file name', () => {
    const scripts = loadBullmqScripts();
    expect([...scripts.keys()].sort()).toEqual(Object.keys(BULLMQ_SCRIPT_KEYS).sort());
    for (const script of scripts.values()) {
      expect(script.file).toBe(`${script.name}-${script.keyCount}.lua`);
      expect(script.lua).toContain('redis.call');
    }
  });

  it('refuses a folder that lost a script, naming the file and the build that copies it', async () => {
    const { path, url } = await copyOfScripts();
    await rm(join(path, 'pauseQueueAtLeast-1.lua'));
    expect(() => loadBullmqScripts(url)).toThrow(
      /pauseQueueAtLeast-1\.lua is missing: expected in .*, which the build copies from src\/queue\/bullmq-internals\/lua\//,
    );
  });

  it('refuses a file of another name or key count', async () => {
    const { path, url } = await copyOfScripts();
    await writeFile(join(path, 'extendLocks-1.lua'), "return redis.call('PING')");
    expect(() => loadBullmqScripts(url)).toThrow(
      /holds extendLocks-1\.lua, which is no script docsync calls/,
    );
    await rm(join(path, 'extendLocks-1.lua'));
    await copyFile(join(path, 'pauseQueueAtLeast-1.lua'), join(path, 'pauseQueueAtLeast-2.lua'));
    expect(() => loadBullmqScripts(url)).toThrow(
      'pauseQueueAtLeast-2.lua takes 2 keys, but docsync calls pauseQueueAtLeast with 1',
    );
  });

  it('refuses a missing folder', () => {
    expect(() => loadBullmqScripts(pathToFileURL(join(tmpdir(), 'docsync-no-such-lua/')))).toThrow(
      /docsync's Lua scripts are missing/,
    );
  });
});
