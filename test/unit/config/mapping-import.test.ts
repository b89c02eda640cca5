import { describe, expect, it } from 'vitest';
import { SERVICE_IMPORT_LIMITS } from '../../../src/api/schemas/service-import-limits.js';
import { formatBytes, parseByteSize } from '../../../src/config/byte-size.js';
import { parseConfig } from '../../../src/config/load-config.js';
import { configProblems } from '../../support/config-problems.js';

const MIB = 1024 * 1024;

function mapping(importYaml: string): string {
  return `service: { baseUrl: "https://docs.example.com/v1", token: t }
mappings:
  - name: docs
    space: space_1
    git: { repo: ./repo, branch: main }
${importYaml}`;
}

function problems(text: string): string[] {
  return configProblems(() => parseConfig(text, 'docsync.yaml', {}));
}

describe('mapping import settings', () => {
  it('default to the service limits, unlisted pages skipped and no file left out by size', () => {
    const config = parseConfig(mapping(''), 'docsync.yaml', {});
    expect(config.mappings[0]?.import).toEqual({ limits: { ...SERVICE_IMPORT_LIMITS }, unlisted: 'skip' });
  });

  it('read sizes as bytes or as a number with a unit', () => {
    const config = parseConfig(
      mapping(`    import:
      limits: { maxBytes: 100MiB, maxFileBytes: 20971520, maxFiles: 20000 }
      skipFilesOver: 5MiB
      unlisted: append
`),
      'docsync.yaml',
      {},
    );
    expect(config.mappings[0]?.import).toEqual({
      limits: { maxBytes: 100 * MIB, maxFileBytes: 20 * MIB, maxFiles: 20_000 },
      skipFilesOver: 5 * MIB,
      unlisted: 'append',
    });
  });

  it('name the key and the line of a bad size, a size over the per-file limit and an unknown choice', () => {
    expect(problems(mapping('    import: { skipFilesOver: 5 megs }\n'))).toEqual([
      'mappings[0].import.skipFilesOver: "5 megs" is not a size: write a whole number of bytes, or a number with a unit, for example 512KiB, 5MiB or 1GiB (docsync.yaml:6:30)',
    ]);
    expect(problems(mapping('    import: { skipFilesOver: 30MiB }\n'))).toEqual([
      expect.stringMatching(
        /^mappings\[0\]\.import\.skipFilesOver: 30 MiB is over limits\.maxFileBytes \(20 MiB\): files between the two would still be refused; make it 20MiB or less/,
      ),
    ]);
    expect(problems(mapping('    import: { unlisted: keep }\n'))[0]).toMatch(
      /^mappings\[0\]\.import\.unlisted: expected one of "skip", "append"/,
    );
  });
});

describe('byte sizes', () => {
  it('parse units, binary and decimal, and format for people', () => {
    expect([
      parseByteSize('512KiB'),
      parseByteSize('1.5 MiB'),
      parseByteSize('2GB'),
      parseByteSize('77'),
    ]).toEqual([512 * 1024, 1.5 * MIB, 2e9, 77]);
    expect(parseByteSize('5 mb')).toBeUndefined();
    expect([formatBytes(60 * MIB), formatBytes(1536), formatBytes(812), formatBytes(62.34 * MIB)]).toEqual([
      '60 MiB',
      '1.5 KiB',
      '812 B',
      '62.3 MiB',
    ]);
  });
});
