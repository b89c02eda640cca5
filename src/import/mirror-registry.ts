// One bare mirror per repository under the data folder, shared by every mapping of that
// repository: fetched once per poll however many mappings read it.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { GitMirror } from '../git/git-mirror.js';
import type { Logger } from '../log/create-logger.js';

export class MirrorRegistry {
  readonly #dir: string;
  readonly #log: Logger;
  readonly #env: NodeJS.ProcessEnv;
  readonly #mirrors = new Map<string, GitMirror>();

  constructor(options: { dataDir: string; log: Logger; env?: NodeJS.ProcessEnv }) {
    this.#dir = join(options.dataDir, 'git');
    this.#log = options.log;
    this.#env = options.env ?? process.env;
  }

  mirrorFor = (repo: string): GitMirror => {
    let mirror = this.#mirrors.get(repo);
    if (mirror === undefined) {
      const name = createHash('sha256').update(repo).digest('hex').slice(0, 16);
      mirror = new GitMirror({ repo, dir: join(this.#dir, `${name}.git`), log: this.#log, env: this.#env });
      this.#mirrors.set(repo, mirror);
    }
    return mirror;
  };
}
