// The demo's git repository under the demo folder: created with the demo content and one commit on
// `main` the first time, kept as it is afterwards (your edits, committed or not, survive restarts).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gitEnvironment, runGit } from '../git/git-process.js';
import type { Logger } from '../log/create-logger.js';
import { DEMO_FILES } from './demo-content.js';

export const DEMO_BRANCH = 'main';
const GIT_TIMEOUT_MS = 30_000;
const AUTHOR = ['-c', 'user.name=docsync demo', '-c', 'user.email=demo@docsync.localhost'];

export async function prepareDemoRepo(repo: string, log: Logger): Promise<void> {
  if (existsSync(join(repo, '.git'))) {
    log.info({ repo }, 'demo repository kept from an earlier run');
    return;
  }
  await mkdir(repo, { recursive: true });
  const options = { env: gitEnvironment(process.env), timeoutMs: GIT_TIMEOUT_MS };
  const git = (...args: string[]) => runGit(['-C', repo, ...AUTHOR, ...args], options);
  await git('init', '--quiet', `--initial-branch=${DEMO_BRANCH}`);
  for (const [path, text] of Object.entries(DEMO_FILES)) {
    await mkdir(dirname(join(repo, path)), { recursive: true });
    await writeFile(join(repo, path), text);
  }
  await git('add', '--all');
  await git('commit', '--quiet', '--no-verify', '-m', 'Demo docs and the Pets API');
  log.info({ repo }, 'demo repository created');
}
