// A dry run's preview in every `docsync once --format`, each read back as CI reads it.
import { describe, expect, it } from 'vitest';
import type { ContentPreview } from '../../../src/preview/content-preview.js';
import type { OnceSuccess } from '../../../src/report/once-result.js';
import { REPORT_FORMATS, renderReport } from '../../../src/report/report-format.js';
import { readAnnotations, readJunit, readMarkdownTables, readSarif } from '../report/report-schemas.js';

const preview: ContentPreview = {
  against: {
    kind: 'change-request',
    id: 'cr_1',
    number: 4,
    url: 'http://127.0.0.1:9/cr/4',
    revision: 'rev_9',
  },
  added: 1,
  changed: 1,
  removed: 2,
  unchanged: 5,
  linesAdded: 8,
  linesRemoved: 25,
  pages: [
    { path: 'guides/new', change: 'added', linesAdded: 5, linesRemoved: 0 },
    // A path a writer chose: table separators and markup must stay text.
    { path: 'a|b <i>', change: 'changed', linesAdded: 3, linesRemoved: 1 },
    { path: 'old', change: 'removed', linesAdded: 0, linesRemoved: 20 },
  ],
  notListed: 1,
  approximate: false,
};
const dryRun: OnceSuccess = {
  mapping: 'docs',
  folder: 'docs',
  report: { result: 'dry-run', sha: '0123456789abcdef0123456789abcdef01234567', preview },
};

describe('a dry run in every format', () => {
  it('text lists what was compared, the counts, and each page with its lines', () => {
    expect(renderReport('text', dryRun)).toBe(
      [
        'docs: dry-run 0123456789ab',
        'compared with change request #4, revision rev_9',
        'pages: 1 added, 1 changed, 2 removed, 5 unchanged; lines +8 -25',
        '  + guides/new +5 -0',
        '  ~ a|b <i> +3 -1',
        '  - old +0 -20',
        '  ... and 1 more',
        '',
      ].join('\n'),
    );
    const live = {
      ...dryRun,
      report: { ...dryRun.report, preview: { ...preview, against: { kind: 'live', revision: 'rev_1' } } },
    } satisfies OnceSuccess;
    expect(renderReport('text', live)).toContain(
      'compared with the live content, for a new change request, revision rev_1\n',
    );
  });

  it('JSON carries the preview whole', () => {
    expect(JSON.parse(renderReport('json', dryRun))).toEqual({
      mapping: 'docs',
      result: 'dry-run',
      sha: dryRun.report.sha,
      preview,
      brokenLinks: [],
    });
  });

  it('markdown tables the pages, with the change request linked', () => {
    const markdown = renderReport('markdown', dryRun);
    expect(markdown).toContain('#### Dry run: 4 pages would change');
    expect(markdown).toContain('Compared with [change request #4](<http://127.0.0.1:9/cr/4>)');
    expect(markdown).toContain('And 1 page more.');
    expect(readMarkdownTables(markdown)).toEqual([
      [
        ['Page', 'Change', 'Lines'],
        ['guides/new', 'added', '+5 -0'],
        ['a|b <i>', 'changed', '+3 -1'],
        ['old', 'removed', '+0 -20'],
      ],
    ]);
  });

  it('JUnit has the counts as properties and the pages in its output; SARIF keeps the preview as run data', () => {
    const [suite] = readJunit(renderReport('junit', dryRun));
    const properties = Object.fromEntries(
      (suite?.properties?.[0]?.property ?? []).map((property) => [property['@_name'], property['@_value']]),
    );
    expect(properties).toMatchObject({
      result: 'dry-run',
      pagesAdded: '1',
      pagesChanged: '1',
      pagesRemoved: '2',
      linesAdded: '8',
      linesRemoved: '25',
    });
    expect(suite?.['system-out']?.[0]).toContain('~ a|b <i> +3 -1');
    const run = readSarif(renderReport('sarif', dryRun)).runs[0];
    expect(run?.results).toEqual([]);
    expect(run?.properties?.preview).toEqual(preview);
  });

  it('GitHub gets one notice with the counts, and the pages in the log', () => {
    const output = renderReport('github', dryRun);
    expect(readAnnotations(output)).toEqual([
      {
        command: 'notice',
        properties: { title: 'docsync dry run' },
        message: 'against change request #4: 1 added, 1 changed, 2 removed, 5 unchanged; lines +8 -25',
      },
    ]);
    expect(output).toContain('\n+ guides/new +5 -0\n~ a|b <i> +3 -1\n- old +0 -20\n... and 1 more\n');
  });

  it('every format names the pages listed', () => {
    for (const format of REPORT_FORMATS) expect(renderReport(format, dryRun), format).toContain('guides/new');
  });
});
