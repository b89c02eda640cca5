// `docsync once --format junit`: JUnit XML for the test tabs of CI services. One test suite for the
// mapping, one test case per document of the change request (passed when it links to nothing
// missing), and one failure per broken link naming the page, the file and line in git and the
// target. The shape follows the Jenkins xunit plugin's junit-10.xsd, which GitLab, Jenkins, Azure
// Pipelines and the GitHub test-report actions all read: `testcase` takes only `name`, `classname`
// and `time`, so the file and line are in the failure's message and text.
import type { BrokenLink } from '../links/broken-link.js';
import { linkPlace } from '../links/link-place.js';
import { repositoryPath } from '../links/place-broken-links.js';
import { baseLabel, type ContentPreview, changeCounts, pageLines } from '../preview/content-preview.js';
import { isFailure, type OnceResult, type OnceSuccess } from './once-result.js';
import { brokenLinkMessage, pageLabel, sortedBrokenLinks, warningItems } from './report-items.js';
import { xmlAttribute, xmlText } from './xml-text.js';

interface TestCase {
  name: string;
  failures: BrokenLink[];
}

export function renderJunitReport(result: OnceResult): string {
  const suiteName = `docsync links: ${result.mapping}`;
  const className = `docsync.${result.mapping}`;
  if (isFailure(result)) {
    const error = `<error type="${xmlAttribute(result.failure.code)}" message="${xmlAttribute(result.failure.message)}">${xmlText(result.failure.message)}</error>`;
    return document(
      1,
      0,
      1,
      `  <testsuite name="${xmlAttribute(suiteName)}" tests="1" failures="0" errors="1" skipped="0">\n` +
        `    <testcase name="import" classname="${xmlAttribute(className)}">\n      ${error}\n    </testcase>\n` +
        '  </testsuite>',
    );
  }
  const cases = testCases(result);
  const failures = cases.reduce((sum, testCase) => sum + testCase.failures.length, 0);
  const failed = cases.filter((testCase) => testCase.failures.length > 0).length;
  const body = cases.map((testCase) => renderCase(testCase, className));
  const printed = [
    ...previewLines(result.report.preview),
    ...warningItems(result).map(
      (warning) => `warning ${warning.code} at ${warning.place}: ${warning.message}`,
    ),
  ];
  const out = printed.length === 0 ? [] : [`    <system-out>${xmlText(printed.join('\n'))}</system-out>`];
  return document(
    cases.length,
    failed,
    0,
    [
      `  <testsuite name="${xmlAttribute(suiteName)}" tests="${cases.length}" failures="${failed}" errors="0" skipped="0">`,
      `    <properties>`,
      `      <property name="result" value="${xmlAttribute(result.report.result)}"/>`,
      ...property('sha', result.report.sha),
      ...property('changeRequest', result.report.changeRequest?.url),
      ...property('revision', result.report.revision),
      `      <property name="brokenLinks" value="${failures}"/>`,
      ...previewProperties(result.report.preview),
      `    </properties>`,
      ...body,
      ...out,
      '  </testsuite>',
    ].join('\n'),
  );
}

/** One case per checked document, in the check's order; a broken link on a page not listed gets its own. */
function testCases(result: OnceSuccess): TestCase[] {
  const cases = new Map<string, TestCase>();
  for (const page of result.links?.pages ?? [])
    cases.set(page.pageId, { name: caseName(page, result.folder), failures: [] });
  for (const link of sortedBrokenLinks(result)) {
    const testCase = cases.get(link.pageId) ?? { name: caseName(link, result.folder), failures: [] };
    testCase.failures.push(link);
    cases.set(link.pageId, testCase);
  }
  return [...cases.values()];
}

/** `guides/install (docs/guides/install.md)`: the page as people know it, and its file in git when it has one. */
function caseName(page: Pick<BrokenLink, 'pagePath' | 'pageTitle' | 'sourcePath'>, folder: string): string {
  const file =
    page.sourcePath === undefined ? undefined : (repositoryPath(folder, page.sourcePath) ?? page.sourcePath);
  return file === undefined ? pageLabel(page) : `${pageLabel(page)} (${file})`;
}

function renderCase(testCase: TestCase, className: string): string {
  const open = `    <testcase name="${xmlAttribute(testCase.name)}" classname="${xmlAttribute(className)}"`;
  if (testCase.failures.length === 0) return `${open}/>`;
  const failures = testCase.failures.map((link) => {
    const place = linkPlace(link);
    const message = `broken link to ${link.target} (${place})`;
    const text = [
      `${brokenLinkMessage(link)}.`,
      `page: ${pageLabel(link)}`,
      `file: ${link.file ?? link.sourcePath ?? '(none)'}`,
      `line: ${link.line ?? 'not known'}`,
      `target: ${link.target}`,
      `where: ${place}`,
    ].join('\n');
    return `      <failure type="broken-link" message="${xmlAttribute(message)}">${xmlText(text)}</failure>`;
  });
  return [`${open}>`, ...failures, '    </testcase>'].join('\n');
}

/** A dry run's counts as properties: CI shows them beside the (empty) test cases. */
function previewProperties(preview: ContentPreview | undefined): string[] {
  if (preview === undefined) return [];
  return [
    ...property('previewAgainst', baseLabel(preview.against)),
    ...property('pagesAdded', String(preview.added)),
    ...property('pagesChanged', String(preview.changed)),
    ...property('pagesRemoved', String(preview.removed)),
    ...property('linesAdded', String(preview.linesAdded)),
    ...property('linesRemoved', String(preview.linesRemoved)),
  ];
}

/** The pages a dry run lists, one a line, for the suite's output. */
function previewLines(preview: ContentPreview | undefined): string[] {
  if (preview === undefined) return [];
  return [`dry run against ${baseLabel(preview.against)}: ${changeCounts(preview)}`, ...pageLines(preview)];
}

function property(name: string, value: string | undefined): string[] {
  return value === undefined ? [] : [`      <property name="${name}" value="${xmlAttribute(value)}"/>`];
}

function document(tests: number, failures: number, errors: number, suite: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="docsync" tests="${tests}" failures="${failures}" errors="${errors}">`,
    suite,
    '</testsuites>',
    '',
  ].join('\n');
}
