// A strict reader of the Prometheus text format (0.0.4) for tests: every line is empty (the format
// ignores those), a HELP, a TYPE or a sample `name{label="value",...} number`; every sample belongs
// to a family declared before it with both HELP and TYPE; anything else throws, naming the line.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string;
}

export interface Exposition {
  families: Map<string, Family>;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, readonly string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['_sum', '_count'],
};

export function parsePrometheusText(text: string): Exposition {
  const families = new Map<string, Family>();
  const partial = new Map<string, { help?: string; type?: string }>();
  const samples: Sample[] = [];
  if (!text.endsWith('\n')) throw new Error('the exposition does not end with a newline');
  for (const [index, line] of text.split('\n').entries()) {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line === '') continue;
    if (line.startsWith('#')) {
      const match =
        /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line) ??
        fail('a comment that is neither HELP nor TYPE');
      const [, kind, name = '', rest = ''] = match;
      const entry = partial.get(name) ?? {};
      if (kind === 'HELP') entry.help = rest;
      else if (TYPES.has(rest)) entry.type = rest;
      else fail('an unknown metric type');
      partial.set(name, entry);
      if (entry.help !== undefined && entry.type !== undefined)
        families.set(name, { name, type: entry.type, help: entry.help });
      continue;
    }
    const sample = parseSample(line, fail);
    if (familyOf(sample.name, families) === undefined) fail('a sample without HELP and TYPE before it');
    samples.push(sample);
  }
  return { families, samples };
}

function familyOf(name: string, families: ReadonlyMap<string, Family>): Family | undefined {
  const exact = families.get(name);
  if (exact !== undefined && SUFFIXES[exact.type] === undefined) return exact;
  for (const family of families.values())
    for (const suffix of SUFFIXES[family.type] ?? []) if (name === family.name + suffix) return family;
  return undefined;
}

function parseSample(line: string, fail: (why: string) => never): Sample {
  const name = NAME.exec(line)?.[0] ?? fail('no metric name');
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith('{')) {
    rest = rest.slice(1);
    while (!rest.startsWith('}')) {
      const label = LABEL_NAME.exec(rest)?.[0] ?? fail('a bad label name');
      rest = rest.slice(label.length);
      if (!rest.startsWith('="')) fail('a label without ="');
      rest = rest.slice(2);
      let value = '';
      for (;;) {
        const char = rest[0] ?? fail('an unterminated label value');
        rest = rest.slice(1);
        if (char === '"') break;
        if (char === '\n') fail('a raw newline in a label value');
        if (char !== '\\') {
          value += char;
          continue;
        }
        const escaped = rest[0] ?? fail('an unterminated escape');
        rest = rest.slice(1);
        if (escaped === 'n') value += '\n';
        else if (escaped === '\\' || escaped === '"') value += escaped;
        else fail('an unknown escape in a label value');
      }
      if (Object.hasOwn(labels, label)) fail('a label given twice');
      labels[label] = value;
      if (rest.startsWith(',')) rest = rest.slice(1);
      else if (!rest.startsWith('}')) fail('labels not separated by commas');
    }
    rest = rest.slice(1);
  }
  const match = /^ (\S+)( -?\d+)?$/.exec(rest) ?? fail('no value after the name and labels');
  const value = parseGoFloat(match[1] ?? '') ?? fail('a value that is not a number');
  return { name, labels, value };
}

/** A value as Prometheus reads it, with Go's ParseFloat: `Nan` (prom-client's spelling) and `+Inf` too. */
function parseGoFloat(text: string): number | undefined {
  if (/^nan$/i.test(text)) return Number.NaN;
  const infinity = /^([+-]?)inf(inity)?$/i.exec(text);
  if (infinity !== null) return infinity[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/** The samples named `name` whose labels include `labels`. */
export function samplesOf(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return exposition.samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The sum of the samples named `name` whose labels include `labels`; 0 when there is none. */
export function sumOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return samplesOf(exposition, name, labels).reduce((sum, sample) => sum + sample.value, 0);
}
