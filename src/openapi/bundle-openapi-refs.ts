// Bundles the files a document's `$ref`s name into the document, as Redocly's `bundle` does: each
// file is read through the source (which keeps it where the document came from) within
// maxRefFiles and maxBytes; a value named where OpenAPI allows a reference to a reusable object
// (a schema, a response, a parameter...) becomes a component that every such `$ref` points to;
// anywhere else (a map of properties, a path item, an extension) it is copied in place; a file
// that is not JSON or YAML (a code sample, a markdown description) becomes its text; and
// discriminator mappings that name files point at the components their schemas became.

import { collect, type Item, type MappingSite, shownFile, withoutHash } from './bundle-ref-sites.js';
import { OpenApiInvalidError, type OpenApiProblem } from './openapi-invalid-error.js';
import type { PositionRules } from './openapi-positions.js';
import { OpenApiSourceError } from './openapi-source-error.js';
import type { OpenApiSourceReader } from './openapi-source-types.js';
import { depthBeyond, OPENAPI_TEXT_LIMITS, parseOpenApiText } from './parse-openapi-text.js';
import { type Found, type RefFile, RefPlacer } from './place-bundled-refs.js';
import { textProblems } from './text-problems.js';
import { tooLarge } from './url-source-reader.js';

export interface BundleLimits {
  /** Bytes of the document and the files its `$ref`s name, together. */
  maxBytes: number;
  /** Files the `$ref`s may name, beyond the document itself. */
  maxRefFiles: number;
}

/** Files read at the same time: enough to hide latency, few enough to be polite to a server. */
const PARALLEL_READS = 8;

/** Files whose text is parsed; any other extension (`.md`, `.py`...) is taken as text, as Redocly does. */
const PARSED_EXTENSIONS = /\.(ya?ml|json)$/i;

function rootItem(document: Record<string, unknown>, base: string): Item {
  return {
    node: document,
    parent: undefined,
    trail: undefined,
    position: 'node',
    kind: 'root',
    ext: false,
    base,
    fileTrail: undefined,
  };
}

/** Whether any reference (data and names aside) names another file than the document. */
export function hasExternalRef(document: Record<string, unknown>, rules: PositionRules): boolean {
  const found = { sites: [] as Item[], mappings: [] as MappingSite[] };
  collect(rootItem(document, ''), rules, '', found, 1);
  return found.sites.length + found.mappings.length > 0;
}

/**
 * Replaces, in `document`, every reference to another file by the value it names or by a pointer
 * to the component that value became. Returns how many files were read.
 */
export async function bundleOpenApiRefs(
  document: Record<string, unknown>,
  reader: OpenApiSourceReader,
  options: BundleLimits & { rules: PositionRules; documentBytes: number },
  signal: AbortSignal,
): Promise<{ files: number }> {
  const rootFile = withoutHash(reader.location);
  const files = new Map<string, RefFile>();
  let bytes = options.documentBytes;
  const invalid = (problem: OpenApiProblem) => new OpenApiInvalidError(reader.label, [problem]);

  const load = async (file: string) => {
    const data = await reader.readRef(file, signal);
    bytes += data.length;
    if (bytes > options.maxBytes)
      throw tooLarge(`${reader.label} with the files its $refs name`, options.maxBytes);
    const text = data.toString('utf8');
    if (!PARSED_EXTENSIONS.test(new URL(file).pathname) && /\.[^./]+$/.test(new URL(file).pathname)) {
      files.set(file, { text });
      return;
    }
    const parsed = parseOpenApiText(text);
    if (!parsed.ok)
      throw new OpenApiInvalidError(reader.label, textProblems(parsed.problems, shownFile(rootFile, file)));
    files.set(file, { value: parsed.value });
  };

  const placer = new RefPlacer(document, rootFile, files, options.rules, reader.label);
  let frontier: Item[] = [rootItem(document, rootFile)];
  let deferred: Found = { sites: [], mappings: [] };
  while (frontier.length + deferred.sites.length + deferred.mappings.length > 0) {
    signal.throwIfAborted();
    const found = deferred;
    for (const item of frontier) collect(item, options.rules, rootFile, found, Number.POSITIVE_INFINITY);
    const targets = placer.targets(found);
    const missing = [...new Set(targets.map((target) => target.file))].filter(
      (file) => file !== rootFile && !files.has(file),
    );
    if (files.size + missing.length > options.maxRefFiles) {
      throw new OpenApiSourceError(
        'SOURCE_TOO_LARGE',
        `${reader.label}: its $refs name more than ${options.maxRefFiles} files; raise maxRefFiles of the spec if they should all be read`,
        { setting: 'maxRefFiles' },
      );
    }
    for (let start = 0; start < missing.length; start += PARALLEL_READS)
      await Promise.all(missing.slice(start, start + PARALLEL_READS).map(load));
    ({ next: frontier, deferred } = placer.place(found, targets));
  }
  if (depthBeyond(document, OPENAPI_TEXT_LIMITS.maxDepth)) {
    throw invalid({
      pointer: '',
      message: `nests objects and lists more than ${OPENAPI_TEXT_LIMITS.maxDepth} deep once its $refs are bundled: flatten the schemas that nest deepest`,
    });
  }
  return { files: files.size };
}
