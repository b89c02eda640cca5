import { describe, expect, it } from 'vitest';
import type { BrokenLink } from '../../../src/links/broken-link.js';
import type { OnceResult, OnceSuccess } from '../../../src/report/once-result.js';
import { REPORT_FORMATS, renderReport } from '../../../src/report/report-format.js';
import { readAnnotations, readJunit, readMarkdownTables, readSarif } from './report-schemas.js';

const guide = {
  pageId: 'p_guide',
  pageTitle: 'Guide',
  pagePath: 'guides/install',
  sourcePath: 'guides/install.md',
};
const placed: BrokenLink = {
  ...guide,
  target: 'old.md',
  file: 'docs/guides/install.md',
  line: 12,
  column: 5,
};
const unplaced: BrokenLink = { ...guide, target: 'page_123', file: 'docs/guides/install.md' };
// A title and a target a writer chose: markup, separators and a line break must stay text.
const madeInService: BrokenLink = {
  pageId: 'p_notes',
  pageTitle: 'Notes <b>|&"x"',
  noGitFile: true,
  target: 'a|b::c,d%0A\nnext.md',
};
const success: OnceSuccess = {
  mapping: 'docs',
  folder: 'docs',
  report: {
    result: 'imported',
    sha: '0123456789abcdef0123456789abcdef01234567',
    changeRequest: { id: 'cr_1', number: 7, url: 'http://127.0.0.1:9/cr/7' },
    revision: 'rev_1',
    warnings: [
      {
        code: 'SUMMARY_DUPLICATE',
        file: 'SUMMARY.md',
        line: 4,
        message: 'setup.md is already listed on line 3',
      },
    ],
  },
  links: {
    pages: [
      { pageId: 'p_readme', pageTitle: 'Home', pagePath: 'readme', sourcePath: 'README.md' },
      guide,
      { pageId: 'p_notes', pageTitle: 'Notes <b>|&"x"', noGitFile: true },
    ],
    broken: [madeInService, unplaced, placed],
  },
};
const failure: OnceResult = {
  mapping: 'docs',
  failure: { code: 'API_HTTP_ERROR', message: 'the service said 401' },
};

describe('JUnit', () => {
  it('has one test case per page and one failure per broken link, naming page, file, line and target', () => {
    const [suite, ...others] = readJunit(renderReport('junit', success));
    expect(others).toEqual([]);
    expect(suite).toMatchObject({
      '@_name': 'docsync links: docs',
      '@_tests': '3',
      '@_failures': '2',
      '@_errors': '0',
    });
    const cases = suite?.testcase ?? [];
    expect(cases.map((testCase) => [testCase['@_name'], testCase.failure?.length ?? 0])).toEqual([
      ['readme (docs/README.md)', 0],
      ['guides/install (docs/guides/install.md)', 2],
      ['Notes <b>|&"x"', 1],
    ]);
    const [first, second] = cases[1]?.failure ?? [];
    expect(first?.['@_message']).toBe('broken link to old.md (docs/guides/install.md:12:5)');
    expect(first?.['#text']).toContain('file: docs/guides/install.md\nline: 12\ntarget: old.md');
    expect(second?.['@_message']).toBe('broken link to page_123 (docs/guides/install.md, line not known)');
    expect(cases[2]?.failure?.[0]?.['@_message']).toBe(
      `broken link to ${madeInService.target} (no file in git: the page was made in the service)`,
    );
    expect(suite?.['system-out']?.[0]).toContain('warning SUMMARY_DUPLICATE at SUMMARY.md:4');
  });

  it('reports a failed import as an error', () => {
    const [suite] = readJunit(renderReport('junit', failure));
    expect(suite).toMatchObject({ '@_tests': '1', '@_errors': '1' });
    expect(suite?.testcase?.[0]?.error?.[0]).toMatchObject({
      '@_type': 'API_HTTP_ERROR',
      '@_message': 'the service said 401',
    });
  });
});

describe('SARIF', () => {
  it('has a result per broken link and warning, located by file, line and column when known', () => {
    const log = readSarif(renderReport('sarif', success));
    const [run] = log.runs;
    expect(run?.tool.driver.rules?.map((rule) => rule.id)).toEqual(['broken-link', 'SUMMARY_DUPLICATE']);
    const results = run?.results ?? [];
    expect(results.map((result) => [result.ruleId, result.level])).toEqual([
      ['broken-link', 'error'],
      ['broken-link', 'error'],
      ['broken-link', 'error'],
      ['SUMMARY_DUPLICATE', 'warning'],
    ]);
    const [serviceResult, placedResult, unplacedResult, warning] = results;
    expect(placedResult?.locations?.[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'docs/guides/install.md', uriBaseId: 'SRCROOT' },
      region: { startLine: 12, startColumn: 5 },
    });
    expect(placedResult?.message.text).toBe('page guides/install links to old.md, which does not exist.');
    expect(unplacedResult?.locations?.[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'docs/guides/install.md', uriBaseId: 'SRCROOT' },
    });
    expect(unplacedResult?.message.text).toContain('(docs/guides/install.md, line not known)');
    expect(serviceResult?.locations?.[0]?.physicalLocation).toBeUndefined();
    expect(serviceResult?.locations?.[0]?.logicalLocations?.[0]).toMatchObject({
      name: 'Notes <b>|&"x"',
      kind: 'page',
    });
    expect(serviceResult?.message.text).toContain('no file in git: the page was made in the service');
    expect(warning?.locations?.[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'docs/SUMMARY.md', uriBaseId: 'SRCROOT' },
      region: { startLine: 4 },
    });
  });

  it('reports a failed import as an unsuccessful invocation', () => {
    const log = readSarif(renderReport('sarif', failure));
    expect(log.runs[0]?.invocations?.[0]).toMatchObject({
      executionSuccessful: false,
      toolExecutionNotifications: [{ level: 'error', message: { text: 'the service said 401' } }],
    });
  });
});

describe('GitHub annotations', () => {
  it('puts an error on the file and line of each broken link, and a warning on each import warning', () => {
    const annotations = readAnnotations(renderReport('github', success));
    expect(annotations).toEqual([
      {
        command: 'error',
        properties: { title: 'Broken link' },
        message: `page Notes <b>|&"x" links to ${madeInService.target}, which does not exist (no file in git: the page was made in the service)`,
      },
      {
        command: 'error',
        properties: { title: 'Broken link', file: 'docs/guides/install.md', line: '12', col: '5' },
        message: 'page guides/install links to old.md, which does not exist',
      },
      {
        command: 'error',
        properties: { title: 'Broken link', file: 'docs/guides/install.md' },
        message:
          'page guides/install links to page_123, which does not exist (docs/guides/install.md, line not known)',
      },
      {
        command: 'warning',
        properties: { title: 'Import warning SUMMARY_DUPLICATE', file: 'docs/SUMMARY.md', line: '4' },
        message: 'setup.md is already listed on line 3',
      },
    ]);
  });
});

describe('a warning about a name that is not UTF-8', () => {
  it('points at the name as shown, its \\xNN kept, in the mapped folder', () => {
    const message =
      'caf\\xe9.md has a name that is not UTF-8 (shown with its bytes as \\xNN): it stays in git and is not imported; rename it to a UTF-8 name (git mv) to import it';
    const run: OnceSuccess = {
      ...success,
      links: undefined,
      report: { ...success.report, warnings: [{ code: 'FILE_LEFT_OUT', file: 'caf\\xe9.md', message }] },
    };
    expect(readAnnotations(renderReport('github', run))).toEqual([
      {
        command: 'warning',
        properties: { title: 'Import warning FILE_LEFT_OUT', file: 'docs/caf\\xe9.md' },
        message,
      },
    ]);
    const [warnings] = readMarkdownTables(renderReport('markdown', run));
    expect(warnings?.[1]).toEqual(['docs/caf\\xe9.md', message, 'FILE_LEFT_OUT']);
  });
});

describe('markdown summary', () => {
  it('tables the broken links with page, place in git and target, and the warnings', () => {
    const markdown = renderReport('markdown', success);
    expect(markdown).toContain('#### 3 broken links');
    expect(markdown).toContain('[change request #7](<http://127.0.0.1:9/cr/7>)');
    const [links, warnings, ...others] = readMarkdownTables(markdown);
    expect(others).toEqual([]);
    expect(links).toEqual([
      ['Page', 'File and line in git', 'Link to'],
      ['Notes <b>|&"x"', 'no file in git: the page was made in the service', 'a|b::c,d%0A next.md'],
      ['guides/install', 'docs/guides/install.md:12:5', 'old.md'],
      ['guides/install', 'docs/guides/install.md, line not known', 'page_123'],
    ]);
    expect(warnings).toEqual([
      ['Where', 'Warning', 'Code'],
      ['docs/SUMMARY.md:4', 'setup.md is already listed on line 3', 'SUMMARY_DUPLICATE'],
    ]);
  });
});

describe('JSON and text', () => {
  it('give each broken link its file, line and column, or why there is no line', () => {
    const json = JSON.parse(renderReport('json', success)) as { brokenLinks: Array<Record<string, unknown>> };
    expect(json).toMatchObject({ mapping: 'docs', result: 'imported', checkedPages: 3 });
    expect(json.brokenLinks.map((link) => [link.file, link.line, link.column, link.lineUnknown])).toEqual([
      [undefined, undefined, undefined, 'the page was made in the service and has no file in git'],
      ['docs/guides/install.md', 12, 5, undefined],
      ['docs/guides/install.md', undefined, undefined, 'the link could not be found in the file in git'],
    ]);
    expect(renderReport('text', success)).toContain(
      'broken links: 3\n' +
        `  Notes <b>|&"x": ${madeInService.target} (no file in git: the page was made in the service)\n` +
        '  guides/install: old.md (docs/guides/install.md:12:5)\n' +
        '  guides/install: page_123 (docs/guides/install.md, line not known)\n',
    );
  });

  it('every format ends with a newline and names the failure of a failed run', () => {
    for (const format of REPORT_FORMATS) {
      const output = renderReport(format, failure);
      expect(output.endsWith('\n'), format).toBe(true);
      expect(output, format).toContain('the service said 401');
    }
  });
});
