// `docsync once --format sarif`: a SARIF 2.1.0 log for code scanning views (GitHub's, GitLab's,
// IDE viewers). A result per broken link (error) and per import warning (warning), located by the
// file in the repository and, when known, the line and column; a link on a page made in the service
// has no file, and is located by its page alone (a logical location).
import type { Location, Log, ReportingDescriptor, Result } from 'sarif';
import type { BrokenLink } from '../links/broken-link.js';
import { linkPlace, unknownLineReason } from '../links/link-place.js';
import { VERSION } from '../package-info.js';
import { isFailure, type OnceResult } from './once-result.js';
import {
  brokenLinkMessage,
  pageLabel,
  sortedBrokenLinks,
  type WarningItem,
  warningItems,
} from './report-items.js';

export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

const BROKEN_LINK_RULE: ReportingDescriptor = {
  id: 'broken-link',
  name: 'BrokenLink',
  shortDescription: { text: 'A link to a page or file that does not exist' },
  fullDescription: {
    text: "The documentation service's link check found a relative link whose page or file is not in the change request's content.",
  },
  defaultConfiguration: { level: 'error' },
};

export function renderSarifReport(result: OnceResult): string {
  const driver = { name: 'docsync', version: VERSION, semanticVersion: VERSION };
  if (isFailure(result)) {
    const log: Log = {
      $schema: SARIF_SCHEMA,
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { ...driver, rules: [] } },
          results: [],
          invocations: [
            {
              executionSuccessful: false,
              toolExecutionNotifications: [
                {
                  level: 'error',
                  message: { text: result.failure.message },
                  descriptor: { id: result.failure.code },
                },
              ],
            },
          ],
        },
      ],
    };
    return `${JSON.stringify(log, null, 2)}\n`;
  }
  const warnings = warningItems(result);
  const warningRules = [...new Set(warnings.map((warning) => warning.code))].sort();
  const rules: ReportingDescriptor[] = [
    BROKEN_LINK_RULE,
    ...warningRules.map((code) => ({
      id: code,
      shortDescription: { text: `Import warning ${code}` },
      defaultConfiguration: { level: 'warning' as const },
    })),
  ];
  const results: Result[] = [
    ...sortedBrokenLinks(result).map(brokenLinkResult),
    ...warnings.map((warning) => warningResult(warning, 1 + warningRules.indexOf(warning.code))),
  ];
  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { ...driver, rules } },
        // Files are named from the repository's root: a viewer resolves them against the checkout.
        originalUriBaseIds: { SRCROOT: { description: { text: 'The root of the git repository' } } },
        results,
        invocations: [{ executionSuccessful: true }],
        properties: {
          mapping: result.mapping,
          result: result.report.result,
          ...(result.report.sha === undefined ? {} : { sha: result.report.sha }),
          ...(result.report.changeRequest?.url === undefined
            ? {}
            : { changeRequest: result.report.changeRequest.url }),
          // A dry run's preview as data: pages are not findings, so they are no results.
          ...(result.report.preview === undefined ? {} : { preview: result.report.preview }),
        },
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function brokenLinkResult(link: BrokenLink): Result {
  const reason = unknownLineReason(link);
  return {
    ruleId: BROKEN_LINK_RULE.id,
    ruleIndex: 0,
    level: 'error',
    message: { text: `${brokenLinkMessage(link)}${reason === undefined ? '' : ` (${linkPlace(link)})`}.` },
    locations: [brokenLinkLocation(link)],
    properties: { page: pageLabel(link), pageId: link.pageId, target: link.target },
  };
}

function brokenLinkLocation(link: BrokenLink): Location {
  const file = link.file;
  if (file === undefined)
    return { logicalLocations: [{ name: pageLabel(link), fullyQualifiedName: link.pageId, kind: 'page' }] };
  return {
    physicalLocation: {
      artifactLocation: { uri: encodeUri(file), uriBaseId: 'SRCROOT' },
      ...(link.line === undefined
        ? {}
        : {
            region: {
              startLine: link.line,
              ...(link.column === undefined ? {} : { startColumn: link.column }),
            },
          }),
    },
    logicalLocations: [{ name: pageLabel(link), fullyQualifiedName: link.pageId, kind: 'page' }],
  };
}

function warningResult(warning: WarningItem, ruleIndex: number): Result {
  return {
    ruleId: warning.code,
    ruleIndex,
    level: 'warning',
    message: { text: warning.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: encodeUri(warning.file), uriBaseId: 'SRCROOT' },
          ...(warning.line === undefined ? {} : { region: { startLine: warning.line } }),
        },
      },
    ],
  };
}

/** A relative path as a URI reference (SARIF's `uri` is one): each segment percent-encoded. */
function encodeUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
