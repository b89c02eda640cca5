// `npm run docs:reference`: writes the files generated from the code (generated-references.ts).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-info.js';
import { generatedReferences } from './generated-references.js';

for (const { path, text } of generatedReferences()) {
  await writeFile(join(PACKAGE_ROOT, path), text);
  process.stdout.write(`wrote ${path}\n`);
}
