// How long reading the configuration takes: the example file, and one with 200 mappings.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseConfig } from '../src/config/load-config.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { report, summarize } from './stats.js';

function time(runs: number, fn: () => void): number[] {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    fn();
    samples.push(performance.now() - started);
  }
  return samples;
}

export async function configBench(): Promise<void> {
  const example = await readFile(join(PACKAGE_ROOT, 'config', 'docsync.example.yaml'), 'utf8');
  report('parse example config (ms)', summarize(time(200, () => parseConfig(example, 'example.yaml', {}))));

  const mappings = Array.from(
    { length: 200 },
    (_, i) =>
      `  - name: docs-${i}\n    space: space_${i}\n    git: { repo: https://git.example.com/r${i % 20}.git, branch: main, dir: docs/part-${i} }\n`,
  ).join('');
  const large = `service:\n  baseUrl: https://docs.example.com/v1\n  token: t\nmappings:\n${mappings}`;
  report('parse 200-mapping config (ms)', summarize(time(50, () => parseConfig(large, 'large.yaml', {}))));
}
