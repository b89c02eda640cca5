// Which changes between two versions of a spec break the clients written against the first: an
// operation removed, a parameter removed or newly required (a request body field too), a success
// response or one of its fields removed, and a parameter or request field whose type was narrowed
// (string to enum, number to integer, enum values dropped). Each shared component is compared once
// per direction, however many operations use it, and changes in it name it.
import { type EventLoopSlicer, eventLoopSlicer } from './event-loop-slicer.js';
import { fragmentTokens, valueAt } from './json-pointer.js';
import { operationsOf } from './operation-fingerprints.js';

export type BreakingKind =
  | 'removed-operation'
  | 'removed-parameter'
  | 'required-parameter'
  | 'required-field'
  | 'removed-response'
  | 'removed-response-field'
  | 'narrowed-type';

export interface BreakingChange {
  /** `GET /pets/{id}`. */
  operation: string;
  kind: BreakingKind;
  /** What of the operation: `query parameter limit`, `request body application/json`, `response 200 application/json`. */
  at?: string;
  /** The field under `at`, such as `owner.login` or `[].id`. */
  field?: string;
  /** The shared component the change was made in (`components/schemas/Pet`). */
  component?: string;
  /** For a narrowed type, from what to what: `number → integer`, `string → enum [a, b]`. */
  detail?: string;
}

type Doc = Record<string, unknown>;
type Direction = 'request' | 'response';

/** What a comparison of two schemas finds, relative to where they were compared. */
interface Finding {
  kind: 'required-field' | 'removed-response-field' | 'narrowed-type';
  field: readonly string[];
  component?: string;
  detail?: string;
  /** Where it was made, once in a component: the component, the kind and the field in the component. */
  origin?: string;
}

/** `$ref`s followed at most to reach a value: more is a loop of references. */
const MAX_HOPS = 32;

export async function breakingChanges(
  before: Doc,
  after: Doc,
  options: {
    signal?: AbortSignal;
    slicer?: EventLoopSlicer;
    /** The operations in both versions to compare (those whose fingerprints changed); all when not given. */
    only?: ReadonlySet<string>;
  } = {},
): Promise<BreakingChange[]> {
  const slicer = options.slicer ?? eventLoopSlicer(options.signal);
  const compare = new SchemaComparison(before, after);
  const current = new Map<string, Doc>();
  for (const { name, defining } of operationsOf(after)) current.set(name, defining as Doc);
  const changes: BreakingChange[] = [];
  for (const { name, defining } of operationsOf(before)) {
    const now = current.get(name);
    if (now === undefined) changes.push({ operation: name, kind: 'removed-operation' });
    else if (options.only === undefined || options.only.has(name))
      changes.push(...compareOperation(name, defining as Doc, now, compare));
    if (slicer.due()) await slicer.pause();
  }
  return changes;
}

/** `removed field owner.login of response 200 application/json (in components/schemas/user)`. */
export function describeBreakingChange(change: BreakingChange): string {
  const at = change.at ?? '';
  const field = change.field === undefined ? '' : `field ${change.field} of `;
  const where = `${field}${at}`;
  const component = change.component === undefined ? '' : ` (in ${change.component})`;
  switch (change.kind) {
    case 'removed-operation':
      return 'removed operation';
    case 'removed-parameter':
      return `removed ${at}`;
    case 'required-parameter':
      return `${at} is now required`;
    case 'required-field':
      return `${where} is now required${component}`;
    case 'removed-response':
      return `removed ${at}`;
    case 'removed-response-field':
      return `removed ${where}${component}`;
    case 'narrowed-type':
      return `narrowed ${where}: ${change.detail ?? 'type'}${component}`;
  }
}

function compareOperation(
  name: string,
  before: Doc,
  after: Doc,
  compare: SchemaComparison,
): BreakingChange[] {
  const changes: BreakingChange[] = [];
  const add = (at: string, findings: readonly Finding[]) => {
    for (const finding of findings) {
      const field = fieldPath(finding.field);
      changes.push({
        operation: name,
        kind: finding.kind,
        at,
        ...(field === '' ? {} : { field }),
        ...(finding.component === undefined ? {} : { component: finding.component }),
        ...(finding.detail === undefined ? {} : { detail: finding.detail }),
      });
    }
  };

  const oldParameters = parametersOf(compare.before, before);
  const newParameters = parametersOf(compare.after, after);
  for (const [key, parameter] of oldParameters) {
    const now = newParameters.get(key);
    if (now === undefined) {
      changes.push({ operation: name, kind: 'removed-parameter', at: key });
      continue;
    }
    if (now.required === true && parameter.required !== true)
      changes.push({ operation: name, kind: 'required-parameter', at: key });
    add(key, compare.schemas(parameterSchema(parameter), parameterSchema(now), 'request'));
  }
  for (const [key, parameter] of newParameters)
    if (!oldParameters.has(key) && parameter.required === true)
      changes.push({ operation: name, kind: 'required-parameter', at: key });

  const oldBody = bodyOf(compare.before, before);
  const newBody = bodyOf(compare.after, after);
  if (newBody?.required === true && oldBody?.required !== true)
    changes.push({ operation: name, kind: 'required-parameter', at: 'request body' });
  if (oldBody !== undefined && newBody !== undefined) {
    for (const [media, schema] of oldBody.content) {
      const now = newBody.content.get(media);
      if (now !== undefined) add(label('request body', media), compare.schemas(schema, now, 'request'));
    }
  }

  const oldResponses = successResponsesOf(compare.before, before);
  const newResponses = successResponsesOf(compare.after, after);
  for (const [status, content] of oldResponses) {
    const now = newResponses.get(status);
    for (const [media, schema] of content) {
      const at = label(`response ${status}`, media);
      const kept = now?.get(media);
      if (now === undefined || kept === undefined) {
        changes.push({ operation: name, kind: 'removed-response', at });
        continue;
      }
      add(at, compare.schemas(schema, kept, 'response'));
    }
  }
  return changes;
}

/**
 * Compares schemas of the two documents. A pair of `$ref`s to the same component is compared once
 * per direction and remembered; a component met again while it is being compared (a recursive
 * schema) adds nothing more there. What was compared while such a loop was cut short is not
 * remembered, unless the loop closed on the component itself: it would lack what the loop holds.
 */
class SchemaComparison {
  readonly #components = new Map<string, Finding[]>();
  readonly #open = new Set<string>();
  /** The keys of comparisons cut short because they were open, not yet closed again. */
  #cuts: string[] = [];

  constructor(
    readonly before: Doc,
    readonly after: Doc,
  ) {}

  schemas(before: unknown, after: unknown, direction: Direction): Finding[] {
    const oldRef = refOf(before);
    const newRef = refOf(after);
    if (oldRef !== undefined && oldRef === newRef) return this.#component(oldRef, direction);
    const compare = () => this.#resolved(resolve(this.before, before), resolve(this.after, after), direction);
    if (oldRef === undefined && newRef === undefined) return compare();
    // Two different references (a renamed component) compared inline: a loop through them stops here.
    return this.#guarded(`${direction} ${oldRef ?? ''} ${newRef ?? ''}`, compare).findings;
  }

  #component(ref: string, direction: Direction): Finding[] {
    const key = `${direction} ${ref}`;
    const known = this.#components.get(key);
    if (known !== undefined) return known;
    const component = componentName(ref);
    const { findings, complete } = this.#guarded(key, () =>
      this.#resolved(resolve(this.before, { $ref: ref }), resolve(this.after, { $ref: ref }), direction).map(
        (finding) =>
          finding.component === undefined
            ? { ...finding, component, origin: `${component} ${finding.kind} ${finding.field.join('/')}` }
            : finding,
      ),
    );
    if (complete) this.#components.set(key, findings);
    return findings;
  }

  /** `compare` run unless `key` is open already; `complete` when no loop through another key was cut in it. */
  #guarded(key: string, compare: () => Finding[]): { findings: Finding[]; complete: boolean } {
    if (this.#open.has(key)) {
      this.#cuts.push(key);
      return { findings: [], complete: false };
    }
    const mark = this.#cuts.length;
    this.#open.add(key);
    try {
      const findings = compare();
      const cut = this.#cuts.slice(mark).filter((other) => other !== key);
      this.#cuts = [...this.#cuts.slice(0, mark), ...cut];
      return { findings, complete: cut.length === 0 };
    } finally {
      this.#open.delete(key);
    }
  }

  #resolved(before: unknown, after: unknown, direction: Direction): Finding[] {
    if (!isObject(before) || !isObject(after)) return [];
    const findings: Finding[] = [];
    if (direction === 'request') {
      const detail = narrowing(before, after);
      if (detail !== undefined) findings.push({ kind: 'narrowed-type', field: [], detail });
    }
    // `allOf` members that match one for one (the same components, in order) are compared as
    // members, so that what changes in a component is named by it; the schema's own properties
    // apart. Otherwise the properties of all members are compared together.
    const members = alignedMembers(before, after);
    for (const [old, now] of members) findings.push(...this.schemas(old, now, direction));
    const allOld = propertiesOf(this.before, before);
    const allNew = propertiesOf(this.after, after);
    const oldProperties = members.length === 0 ? allOld : ownProperties(before);
    const newProperties = members.length === 0 ? allNew : ownProperties(after);
    if (direction === 'response' && isObjectShape(after)) {
      for (const [property, schema] of oldProperties)
        if (!allNew.has(property) && resolve(this.before, schema)?.writeOnly !== true)
          findings.push({ kind: 'removed-response-field', field: [property] });
    }
    if (direction === 'request') {
      const required = requiredOf(this.before, before);
      // Aligned members' own required names are their comparison's: only the schema's own here.
      const now = members.length === 0 ? requiredOf(this.after, after) : ownRequired(after);
      for (const property of now)
        if (!required.has(property) && resolve(this.after, allNew.get(property))?.readOnly !== true)
          findings.push({ kind: 'required-field', field: [property] });
    }
    for (const [property, schema] of oldProperties) {
      const now = newProperties.get(property);
      if (now !== undefined) findings.push(...under(property, this.schemas(schema, now, direction)));
    }
    if (isObject(before.items) && isObject(after.items))
      findings.push(...under('[]', this.schemas(before.items, after.items, direction)));
    if (isObject(before.additionalProperties) && isObject(after.additionalProperties))
      findings.push(
        ...under('*', this.schemas(before.additionalProperties, after.additionalProperties, direction)),
      );
    return unique(findings);
  }
}

/** The findings of a child, placed under its name. */
function under(token: string, findings: readonly Finding[]): Finding[] {
  return findings.map((finding) => ({ ...finding, field: [token, ...finding.field] }));
}

/**
 * One finding per place it was made (component, field and kind): a component used in several
 * places of another is named at the first, so that what is found stays linear in what changed.
 */
function unique(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = finding.origin ?? `${finding.kind} ${finding.field.join('/')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** How `after` accepts less than `before`, for people; undefined when it does not. */
function narrowing(before: Doc, after: Doc): string | undefined {
  const oldTypes = typesOf(before);
  const newTypes = typesOf(after);
  const oldValues = valuesOf(before);
  const newValues = valuesOf(after);
  const shown = (types: ReadonlySet<string> | undefined) =>
    types === undefined ? 'any' : [...types].join(' | ');
  if (oldTypes !== undefined && newTypes !== undefined) {
    const lost = [...oldTypes].filter((type) => !accepts(newTypes, type));
    if (lost.length > 0) {
      const values = newValues === undefined ? '' : ` ${enumText(newValues)}`;
      return `${shown(oldTypes)} → ${shown(newTypes)}${values}`;
    }
  }
  if (newValues === undefined) return undefined;
  if (oldValues === undefined) return `${shown(oldTypes ?? newTypes)} → ${enumText(newValues)}`;
  const dropped = oldValues.filter((value) => !newValues.some((kept) => sameValue(kept, value)));
  if (dropped.length === 0) return undefined;
  return `${enumText(oldValues)} → ${enumText(newValues)}`;
}

function enumText(values: readonly unknown[]): string {
  const shown = values.slice(0, 5).map((value) => JSON.stringify(value));
  return `enum [${shown.join(', ')}${values.length > 5 ? `, … ${values.length - 5} more` : ''}]`;
}

/** The JSON types a schema declares, `null` included when it is nullable; undefined when it declares none. */
function typesOf(schema: Doc): ReadonlySet<string> | undefined {
  const declared = schema.type;
  const types =
    typeof declared === 'string'
      ? [declared]
      : Array.isArray(declared)
        ? declared.filter((type): type is string => typeof type === 'string')
        : undefined;
  if (types === undefined) return undefined;
  if (schema.nullable === true || schema['x-nullable'] === true) types.push('null');
  return new Set(types);
}

function accepts(types: ReadonlySet<string>, type: string): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

/** The values a schema allows when it lists them (`enum`, `const`). */
function valuesOf(schema: Doc): readonly unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  return undefined;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Whether a schema still describes an object's fields: a response field is only "removed" from one. */
function isObjectShape(schema: Doc): boolean {
  return (
    isObject(schema.properties) || Array.isArray(schema.allOf) || (typesOf(schema)?.has('object') ?? false)
  );
}

/** The `allOf` members of two schemas, paired, when they name the same components in the same order. */
function alignedMembers(before: Doc, after: Doc): Array<[unknown, unknown]> {
  const old = before.allOf;
  const now = after.allOf;
  if (!Array.isArray(old) || !Array.isArray(now) || old.length !== now.length) return [];
  const pairs = old.map((member, index): [unknown, unknown] => [member, now[index]]);
  return pairs.every(([a, b]) => refOf(a) === refOf(b)) ? pairs : [];
}

function ownProperties(schema: Doc): Map<string, unknown> {
  return new Map(isObject(schema.properties) ? Object.entries(schema.properties) : []);
}

/** A schema's properties, with those of its `allOf` members. */
function propertiesOf(document: Doc, schema: Doc, depth = 0): Map<string, unknown> {
  const properties = new Map<string, unknown>();
  if (depth > MAX_HOPS) return properties;
  if (Array.isArray(schema.allOf))
    for (const member of schema.allOf) {
      const resolved = resolve(document, member);
      if (resolved !== undefined)
        for (const [name, value] of propertiesOf(document, resolved, depth + 1)) properties.set(name, value);
    }
  if (isObject(schema.properties))
    for (const [name, value] of Object.entries(schema.properties)) properties.set(name, value);
  return properties;
}

function ownRequired(schema: Doc): Set<string> {
  const required = new Set<string>();
  if (Array.isArray(schema.required))
    for (const name of schema.required) if (typeof name === 'string') required.add(name);
  return required;
}

/** The names a schema requires, with those its `allOf` members require. */
function requiredOf(document: Doc, schema: Doc, depth = 0): Set<string> {
  const required = ownRequired(schema);
  if (depth > MAX_HOPS) return required;
  if (Array.isArray(schema.allOf))
    for (const member of schema.allOf) {
      const resolved = resolve(document, member);
      if (resolved !== undefined)
        for (const name of requiredOf(document, resolved, depth + 1)) required.add(name);
    }
  return required;
}

/** Path and operation parameters by `<in> parameter <name>`, the operation's winning; a Swagger body parameter is the request body. */
function parametersOf(document: Doc, defining: Doc): Map<string, Doc> {
  const operation = isObject(defining.operation) ? defining.operation : {};
  const parameters = new Map<string, Doc>();
  for (const list of [defining.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const written of list) {
      const parameter = resolve(document, written);
      if (parameter === undefined || typeof parameter.name !== 'string' || typeof parameter.in !== 'string')
        continue;
      if (parameter.in === 'body') continue;
      parameters.set(`${parameter.in} parameter ${parameter.name}`, parameter);
    }
  }
  return parameters;
}

/** A parameter's schema: its `schema`, its first media type's, or (Swagger 2.0) the parameter itself. */
function parameterSchema(parameter: Doc): unknown {
  if (parameter.schema !== undefined) return parameter.schema;
  if (isObject(parameter.content)) {
    const [first] = Object.values(parameter.content);
    return isObject(first) ? first.schema : undefined;
  }
  return parameter;
}

interface Body {
  required: boolean;
  /** Media type → schema; `` for a Swagger 2.0 body. */
  content: Map<string, unknown>;
}

function bodyOf(document: Doc, defining: Doc): Body | undefined {
  const operation = isObject(defining.operation) ? defining.operation : {};
  const body = resolve(document, operation.requestBody);
  if (body !== undefined) return { required: body.required === true, content: contentOf(body) };
  for (const list of [defining.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const written of list) {
      const parameter = resolve(document, written);
      if (parameter?.in === 'body')
        return { required: parameter.required === true, content: new Map([['', parameter.schema]]) };
    }
  }
  return undefined;
}

/** The operation's success responses (`2xx`): status → media type → schema. */
function successResponsesOf(document: Doc, defining: Doc): Map<string, Map<string, unknown>> {
  const operation = isObject(defining.operation) ? defining.operation : {};
  const responses = new Map<string, Map<string, unknown>>();
  if (!isObject(operation.responses)) return responses;
  for (const [status, written] of Object.entries(operation.responses)) {
    if (!status.startsWith('2')) continue;
    const response = resolve(document, written);
    if (response !== undefined) responses.set(status, contentOf(response));
  }
  return responses;
}

/** Media type → schema of a response or request body; a Swagger 2.0 response's `schema` is under ``. */
function contentOf(holder: Doc): Map<string, unknown> {
  const content = new Map<string, unknown>();
  if (isObject(holder.content)) {
    for (const [media, value] of Object.entries(holder.content))
      if (isObject(value) && value.schema !== undefined) content.set(media, value.schema);
  } else if (holder.schema !== undefined) content.set('', holder.schema);
  return content;
}

function label(at: string, media: string): string {
  return media === '' ? at : `${at} ${media}`;
}

/** `owner.login`, `[].id`, `labels[].name`, `metadata.*`. */
function fieldPath(tokens: readonly string[]): string {
  let path = '';
  for (const token of tokens) path = token === '[]' ? `${path}[]` : path === '' ? token : `${path}.${token}`;
  return path;
}

function refOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.$ref === 'string' && value.$ref.startsWith('#')
    ? value.$ref
    : undefined;
}

/** `components/schemas/Pet` for `#/components/schemas/Pet`. */
function componentName(ref: string): string {
  const tokens = fragmentTokens(ref.slice(1));
  return tokens === undefined ? ref : tokens.join('/');
}

/** The object a value stands for, through its internal `$ref`s; undefined when there is none. */
function resolve(document: Doc, value: unknown): Doc | undefined {
  let node = value;
  for (let hop = 0; hop < MAX_HOPS; hop += 1) {
    const ref = refOf(node);
    if (ref === undefined) return isObject(node) ? node : undefined;
    const tokens = fragmentTokens(ref.slice(1));
    const target = tokens === undefined ? undefined : valueAt(document, tokens);
    if (target === undefined || !target.found) return undefined;
    node = target.value;
  }
  return undefined;
}

function isObject(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
