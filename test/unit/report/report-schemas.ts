// Reading `docsync once` reports back the way CI services read them, and checking them against their
// formats' schemas: JUnit XML against the structure of the Jenkins xunit plugin's junit-10.xsd
// (the schema GitLab, Jenkins and the test-report actions accept), as a JSON schema over the parsed
// document; SARIF against the members SARIF 2.1.0 requires of a log, run, tool, result and location.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Nodes, Root, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { Log } from 'sarif';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);

const text = { type: 'string' };
const attributes = (required: string[], optional: string[]) => ({
  required: required.map((name) => `@_${name}`),
  properties: Object.fromEntries([...required, ...optional].map((name) => [`@_${name}`, text])),
});
const many = (schema: object) => ({ type: 'array', items: schema });

// junit-10.xsd: failure, error and skipped are mixed content with optional `type` and `message`.
const outcome = {
  type: 'object',
  properties: { '#text': text, ...attributes([], ['type', 'message']).properties },
  additionalProperties: false,
};
const testcase = {
  type: 'object',
  ...attributes(['name'], ['time', 'classname', 'group']),
  properties: {
    ...attributes(['name'], ['time', 'classname', 'group']).properties,
    skipped: many(outcome),
    error: many(outcome),
    failure: many(outcome),
    'system-out': many(text),
    'system-err': many(text),
  },
  additionalProperties: false,
};
const suiteAttributes = attributes(
  ['name', 'tests', 'failures', 'errors'],
  ['group', 'time', 'skipped', 'timestamp', 'hostname', 'id', 'package', 'file', 'log', 'url'],
);
const testsuite = {
  type: 'object',
  required: suiteAttributes.required,
  properties: {
    ...suiteAttributes.properties,
    properties: many({
      type: 'object',
      properties: {
        property: many({ type: 'object', ...attributes(['name', 'value'], []), additionalProperties: false }),
      },
      additionalProperties: false,
    }),
    testcase: many(testcase),
    'system-out': many(text),
    'system-err': many(text),
  },
  additionalProperties: false,
};
const junitSchema = {
  type: 'object',
  required: ['testsuites'],
  properties: {
    '?xml': { type: 'object' },
    testsuites: {
      type: 'object',
      properties: {
        ...attributes([], ['name', 'time', 'tests', 'failures', 'errors']).properties,
        testsuite: many(testsuite),
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

const ELEMENTS = new Set([
  'testsuite',
  'testcase',
  'failure',
  'error',
  'skipped',
  'properties',
  'property',
  'system-out',
  'system-err',
]);
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: true,
  isArray: (name) => ELEMENTS.has(name),
});

export interface JunitFailure {
  '#text'?: string;
  '@_type'?: string;
  '@_message'?: string;
}
export interface JunitCase {
  '@_name': string;
  '@_classname'?: string;
  failure?: JunitFailure[];
  error?: JunitFailure[];
}
export interface JunitSuite {
  '@_name': string;
  '@_tests': string;
  '@_failures': string;
  '@_errors': string;
  testcase?: JunitCase[];
  'system-out'?: string[];
  properties?: { property?: { '@_name': string; '@_value': string }[] }[];
}

const validateJunit = ajv.compile(junitSchema);

/** The JUnit document's suites, after checking it is well-formed XML of junit-10.xsd's shape. */
export function readJunit(document: string): JunitSuite[] {
  const wellFormed = XMLValidator.validate(document);
  if (wellFormed !== true) throw new Error(`not well-formed XML: ${JSON.stringify(wellFormed.err)}`);
  const parsed = xml.parse(document) as { testsuites: { testsuite?: JunitSuite[] } };
  check(validateJunit, parsed, 'JUnit');
  return parsed.testsuites.testsuite ?? [];
}

const region = {
  type: 'object',
  properties: {
    startLine: { type: 'integer', minimum: 1 },
    startColumn: { type: 'integer', minimum: 1 },
  },
};
const location = {
  type: 'object',
  properties: {
    physicalLocation: {
      type: 'object',
      anyOf: [{ required: ['address'] }, { required: ['artifactLocation'] }],
      properties: {
        artifactLocation: {
          type: 'object',
          properties: { uri: { type: 'string', format: 'uri-reference' }, uriBaseId: text },
        },
        region,
      },
    },
    logicalLocations: many({
      type: 'object',
      properties: { name: text, fullyQualifiedName: text, kind: text },
    }),
  },
};
const message = {
  type: 'object',
  anyOf: [{ required: ['text'] }, { required: ['id'] }],
  properties: { text },
};
const sarifSchema = {
  type: 'object',
  required: ['version', 'runs', '$schema'],
  properties: {
    $schema: { type: 'string', format: 'uri' },
    version: { const: '2.1.0' },
    runs: many({
      type: 'object',
      required: ['tool'],
      properties: {
        tool: {
          type: 'object',
          required: ['driver'],
          properties: {
            driver: {
              type: 'object',
              required: ['name'],
              properties: {
                name: text,
                version: text,
                rules: many({ type: 'object', required: ['id'], properties: { id: text } }),
              },
            },
          },
        },
        results: many({
          type: 'object',
          required: ['message', 'ruleId', 'locations'],
          properties: {
            ruleId: text,
            ruleIndex: { type: 'integer', minimum: -1 },
            level: { enum: ['none', 'note', 'warning', 'error'] },
            message,
            locations: many(location),
          },
        }),
        invocations: many({
          type: 'object',
          required: ['executionSuccessful'],
          properties: { executionSuccessful: { type: 'boolean' } },
        }),
      },
    }),
  },
};
const validateSarif = ajv.compile(sarifSchema);

/** The SARIF log, after checking the members SARIF 2.1.0 requires. */
export function readSarif(document: string): Log {
  const parsed = JSON.parse(document) as unknown;
  check(validateSarif, parsed, 'SARIF');
  return parsed as Log;
}

export interface Annotation {
  command: string;
  properties: Record<string, string>;
  message: string;
}

/** GitHub workflow commands read back as the runner reads them (escapes undone); other lines are left out. */
export function readAnnotations(output: string): Annotation[] {
  return output.split('\n').flatMap((line) => {
    const match = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (match === null) return [];
    const properties = Object.fromEntries(
      (match[2] ?? '')
        .split(',')
        .filter((pair) => pair !== '')
        .map((pair) => {
          const [key = '', ...value] = pair.split('=');
          return [key, unescapeCommand(value.join('='))];
        }),
    );
    return [{ command: match[1] ?? '', properties, message: unescapeCommand(match[3] ?? '') }];
  });
}

function unescapeCommand(value: string): string {
  return value
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%');
}

/** The cells of each table of a markdown document (header row first), as their text renders. */
export function readMarkdownTables(markdown: string): string[][][] {
  const tree: Root = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  return tree.children
    .filter((node): node is Table => node.type === 'table')
    .map((table) => table.children.map((row) => row.children.map((cell) => textOf(cell))));
}

function textOf(node: Nodes): string {
  if ('value' in node) return node.value;
  return 'children' in node ? node.children.map((child) => textOf(child)).join('') : '';
}

function check(validate: ValidateFunction, value: unknown, format: string): void {
  if (!validate(value))
    throw new Error(`${format} does not match its schema: ${ajv.errorsText(validate.errors)}`);
}
