// The configuration `docsync once` reads in the CLI tests: one mapping of a test repository to a
// space of the local service, in a temp folder of its own, and a runner of `docsync once` on it
// from the repository's working copy at HEAD.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cliEnv, runCli } from './cli-process.js';
import type { TestRepo } from './git-repos.js';
import type { TestEmulator } from './start-test-emulator.js';
import { tempDir } from './test-context.js';

export async function onceConfig(options: {
  emulator: TestEmulator;
  space: string;
  repo: TestRepo;
  /** The mapping's name and its folder in the repository. */
  mapping: string;
  dir: string;
  /** The `mappings:` entries in place of the one single-branch mapping, indented as list items. */
  mappings?: string;
}) {
  const { emulator, space, repo } = options;
  const dir = await tempDir(`once-${options.mapping}`);
  const config = join(dir, 'docsync.yaml');
  await writeFile(
    config,
    `dataDir: ${join(dir, 'data')}
http: { listen: "127.0.0.1:0" }
service: { baseUrl: "${emulator.baseUrl}", token: ${emulator.tokens.admin} }
mappings:
${options.mappings ?? `  - { name: ${options.mapping}, space: ${space}, git: { repo: ${repo.remote}, branch: main, dir: ${options.dir} } }\n`}`,
  );
  /** `docsync once --ref HEAD <args>` in the repository's working copy. */
  const once = (...args: string[]) =>
    runCli(['once', '--config', config, '--ref', 'HEAD', ...args], { cwd: repo.work, env: cliEnv() });
  return { dir, config, once };
}
