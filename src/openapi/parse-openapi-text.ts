// The text of an OpenAPI document (or of a file a `$ref` names) as a value: JSON, or YAML with
// alias expansion bounded. A syntax error says where, in lines and columns.
import { parseDocument } from 'yaml';
import { OpenApiInvalidError } from './openapi-invalid-error.js';

export type TextFormat = 'json' | 'yaml';

/** Alias expansions allowed per document: far above real specs, far below a "billion laughs". */
const MAX_ALIAS_COUNT = 10_000;

export function parseOpenApiText(bytes: Buffer, label: string): { value: unknown; format: TextFormat } {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const start = text.trimStart()[0];
  if (start === '{' || start === '[') {
    try {
      return { value: JSON.parse(text) as unknown, format: 'json' };
    } catch {
      // Not JSON, perhaps YAML in flow style: the YAML parser decides, and says where it fails.
    }
  }
  const document = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const [error] = document.errors;
  if (error !== undefined) {
    const where = position(text, error.pos[0]);
    throw new OpenApiInvalidError(label, [
      { pointer: '', message: `is neither JSON nor YAML (${where}${firstLine(error.message)})` },
    ]);
  }
  try {
    return { value: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown, format: 'yaml' };
  } catch (cause) {
    throw new OpenApiInvalidError(label, [
      { pointer: '', message: `cannot be read as YAML (${firstLine((cause as Error).message)})` },
    ]);
  }
}

/** `line L, column C: ` of an offset in the text. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: `;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}
