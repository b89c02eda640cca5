// What the full-cycle tests start from: the local service with one space, a repository whose
// `docs` folder has two pages (pushed to its bare remote), and an OpenAPI file in a temporary folder.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestRepo, type TestRepo } from './git-repos.js';
import { createTestSpace, startTestEmulator, type TestEmulator } from './start-test-emulator.js';
import { tempDir } from './test-context.js';

export const PETS_SPEC = `openapi: 3.0.3
info: { title: Pets, version: "1" }
paths:
  /pets:
    get:
      responses:
        '200': { description: ok }
`;

export interface DocsFixture {
  emulator: TestEmulator;
  space: string;
  repo: TestRepo;
  /** A temporary folder for the daemon's data and the spec file. */
  dir: string;
  /** pets.yaml in `dir`: PETS_SPEC. */
  specFile: string;
}

/** `readme` is docs/README.md; the default links to the other page, which exists. */
export async function docsFixture(
  label: string,
  readme = '# Welcome\n\nSee [install](install.md).\n',
): Promise<DocsFixture> {
  const emulator = await startTestEmulator();
  const space = await createTestSpace(emulator, 'Docs');
  const repo = await createTestRepo();
  await repo.commit({ 'docs/README.md': readme, 'docs/install.md': '# Install\n' }, 'First docs');
  await repo.push();
  const dir = await tempDir(label);
  const specFile = join(dir, 'pets.yaml');
  await writeFile(specFile, PETS_SPEC);
  return { emulator, space, repo, dir, specFile };
}
