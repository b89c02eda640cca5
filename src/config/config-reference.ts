// docs/reference/configuration.md, written from the configuration's JSON Schema: every key with its
// type, default and description, one table per top-level key. `npm run docs:reference` writes it;
// a test fails when the committed file differs.
import { forEachKey, type JsonSchema } from './config-json-schema.js';

interface KeyRow {
  path: string;
  types: Set<string>;
  required: boolean;
  /** Branches of the union holding the key directly (1: none), and how many of them hold it. */
  forms: number;
  visits: number;
  fallback?: string;
  description: string;
}

export function configReference(schema: JsonSchema): string {
  const rows = new Map<string, KeyRow>();
  const requiredOf = new Map<JsonSchema, readonly string[]>();
  const collectRequired = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const schemaNode = node as JsonSchema;
    if (schemaNode.properties !== undefined)
      requiredOf.set(schemaNode, (schemaNode.required as string[]) ?? []);
    for (const value of Object.values(schemaNode)) {
      if (Array.isArray(value)) value.forEach(collectRequired);
      else collectRequired(value);
    }
  };
  collectRequired(schema);
  const parentOf = new Map<JsonSchema, JsonSchema>();
  for (const [parent] of requiredOf)
    for (const child of Object.values(parent.properties as Record<string, JsonSchema>))
      parentOf.set(child, parent);

  forEachKey(schema, (path, node, forms) => {
    const name = path.slice(path.lastIndexOf('.') + 1).replace(/\[\]$/, '');
    const parent = parentOf.get(node);
    const required = parent !== undefined && (requiredOf.get(parent) ?? []).includes(name);
    const row = rows.get(path) ?? {
      path,
      types: new Set<string>(),
      required,
      forms,
      visits: 0,
      description: String(node.description ?? ''),
    };
    row.types.add(typeOf(node));
    row.required &&= required;
    row.visits += 1;
    if (node.default !== undefined && row.fallback === undefined) row.fallback = defaultText(node.default);
    rows.set(path, row);
  });

  const sections = new Map<string, KeyRow[]>();
  for (const row of rows.values()) {
    const top = row.path.split(/[.[]/)[0] ?? row.path;
    sections.set(top, [...(sections.get(top) ?? []), row]);
  }
  const lines = [
    '# Configuration reference',
    '',
    '<!-- Generated from the configuration schema by `npm run docs:reference`; do not edit by hand. -->',
    '',
    'Every key of `docsync.yaml`, from the schema docsync validates with. Editors that read',
    '`config/docsync.schema.json` (the first line of `config/docsync.example.yaml` points',
    'yaml-language-server at it) complete and check these keys as you type. Any value may be written',
    'as `${VAR}` or `${VAR:-default}`; it is read from the environment before it is checked.',
    '`[]` in a key is an item of a list. Durations are a number with a unit (`500ms`, `30s`, `5m`,',
    '`1h`, `1d`); sizes are bytes or a number with a unit (`512KiB`, `5MiB`).',
    '',
  ];
  for (const [top, keys] of sections) {
    lines.push(`## ${top}`, '', '| Key | Type | Default | Description |', '| --- | --- | --- | --- |');
    for (const row of keys) {
      // A key required in some forms of a value only (git.branch, not git.branches) is not always needed.
      const parentPath = row.path.slice(0, row.path.lastIndexOf('.'));
      const inOneForm = row.visits < (row.forms > 1 ? row.forms : (rows.get(parentPath)?.visits ?? 1));
      const required = row.required ? (inOneForm ? ' (required in its form)' : ' (required)') : '';
      const type = [...row.types].join(' or ') + required;
      lines.push(
        `| \`${row.path}\` | ${cell(type)} | ${cell(row.fallback ?? '')} | ${cell(row.description)} |`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function typeOf(node: JsonSchema): string {
  if (typeof node.$comment === 'string') return node.$comment;
  if (Array.isArray(node.enum))
    return `one of ${node.enum.map((value) => `\`${String(value)}\``).join(', ')}`;
  for (const union of ['anyOf', 'oneOf'] as const) {
    const branches = node[union];
    if (Array.isArray(branches))
      return [...new Set(branches.map((branch) => typeOf(branch as JsonSchema)))].join(' or ');
  }
  const type = node.type;
  if (type === 'array') {
    const items = node.items as JsonSchema | undefined;
    return items === undefined ? 'list' : `list of ${typeOf(items)}`;
  }
  if (type === 'object') return 'object';
  if (type === 'string') {
    if (node.format === 'uri') return 'URL';
    if (typeof node.pattern === 'string') return `string matching \`${node.pattern}\``;
    return 'string';
  }
  if (type === 'integer' || type === 'number') {
    const { minimum: min, maximum: max } = node as { minimum?: number; maximum?: number };
    const range =
      min !== undefined && max !== undefined
        ? `, ${min} to ${max}`
        : min !== undefined
          ? `, at least ${min}`
          : '';
    return `${type}${range}`;
  }
  if (Array.isArray(type)) return type.join(' or ');
  return typeof type === 'string' ? type : 'any';
}

function defaultText(value: unknown): string {
  if (typeof value === 'object' && value !== null && Object.keys(value).length === 0) return '';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

/** Text safe in a markdown table cell. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
