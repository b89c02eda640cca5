// Decides, for each `$ref` to another file that the bundler found, what takes its place: a pointer
// to a component (made the first time a target is named where a Reference Object is allowed), a
// copy of the value (where none is: a map of properties, a path item, an extension), or a file's
// text. Discriminator mappings that name files are pointed at the components of their schemas.
import { componentName, isComponentSlot, sectionOf, trailOf, uniqueName } from './bundle-components.js';
import {
  type Item,
  isPlainObject,
  type MappingSite,
  shownFile,
  type Target,
  targetOf,
  whereOf,
} from './bundle-ref-sites.js';
import { pointerRef, valueAt } from './json-pointer.js';
import { OpenApiInvalidError, type OpenApiProblem } from './openapi-invalid-error.js';
import { componentSection, type Kind } from './openapi-kinds.js';
import { type Container, type PositionRules, tokensOf } from './openapi-positions.js';

/** The references a round of the bundler replaces. */
export interface Found {
  sites: Item[];
  mappings: MappingSite[];
}

const SWAGGER2_SECTIONS: ReadonlySet<string> = new Set(['definitions', 'parameters', 'responses']);

/** A file a `$ref` named: parsed JSON or YAML, or the text of any other file. */
export type RefFile = { value: unknown } | { text: string };

export class RefPlacer {
  /** Target (`file#pointer`) → the component it became. */
  private readonly components = new Map<string, string[]>();
  /** Target → where its first copy was placed, for a target that names itself. */
  private readonly copies = new Map<string, string[]>();

  constructor(
    private readonly document: Record<string, unknown>,
    private readonly rootFile: string,
    private readonly files: ReadonlyMap<string, RefFile>,
    private readonly rules: PositionRules,
    private readonly label: string,
  ) {}

  /** The targets of the sites, then of the mappings, in that order. */
  targets(found: Found): Target[] {
    return [
      ...found.sites.map((site) =>
        targetOf((site.node as Record<string, unknown>).$ref as string, site, this.rootFile, this.label),
      ),
      ...found.mappings.map((site) =>
        targetOf(site.mapping[site.key] as string, site, this.rootFile, this.label),
      ),
    ];
  }

  /**
   * Replaces the sites and mappings, and returns the values placed, to look for references in
   * next. While some `$ref`s build `components` itself (`components/schemas: {$ref: index.yaml}`,
   * `components/schemas/Pet: {$ref: pet.yaml}`), only those are replaced, the others deferred to
   * the next round: the names the document gives come first, and no other `$ref` makes up a name.
   */
  place(found: Found, targets: Target[]): { next: Item[]; deferred: Found } {
    const next: Item[] = [];
    const order = found.sites.map((site, index) => ({ site, target: targets[index] as Target }));
    const structural = order.filter(({ site }) => this.isStructural(site));
    if (structural.length > 0 && structural.length < order.length + found.mappings.length) {
      for (const { site, target } of structural) this.placeSite(site, target, next);
      const deferred = found.sites.filter((site) => !this.isStructural(site));
      return { next, deferred: { sites: deferred, mappings: found.mappings } };
    }
    for (const { site, target } of order) this.placeSite(site, target, next);
    found.mappings.forEach((site, index) => {
      const target = targets[found.sites.length + index] as Target;
      site.mapping[site.key] = this.mappingRef(site, target, next);
    });
    return { next, deferred: { sites: [], mappings: [] } };
  }

  /** A component (`components/schemas/Pet`), a section (`components/schemas`) or `components` itself. */
  private isStructural(site: Item): boolean {
    if (site.ext) return false;
    const tokens = tokensOf(site.trail);
    const section = componentSection(site.kind, this.rules);
    if (section !== undefined && isComponentSlot(tokens, section)) return true;
    if (this.rules.swagger2) return tokens.length === 1 && SWAGGER2_SECTIONS.has(tokens[0] as string);
    return tokens[0] === 'components' && tokens.length <= 2;
  }

  private placeSite(site: Item, target: Target, next: Item[]): void {
    const holder = site.node as Record<string, unknown>;
    const allowsRef = !site.ext && (site.position === 'node' || site.position === 'ref-or-data');
    if (target.file === this.rootFile && allowsRef) {
      holder.$ref = pointerRef(target.tokens);
      return;
    }
    const value = this.valueOf(site, target);
    if (typeof value === 'string' && 'text' in (this.files.get(target.file) ?? {})) {
      this.replace(site, value);
      return;
    }
    const key = `${target.file}${pointerRef(target.tokens)}`;
    const siblings = Object.keys(holder).filter((name) => name !== '$ref');
    const section = allowsRef ? componentSection(site.kind, this.rules) : undefined;
    // Siblings of a `$ref` are allowed beside a schema's; beside a response's, they are merged in.
    if (section !== undefined && isPlainObject(value) && (siblings.length === 0 || site.kind === 'schema')) {
      const placed = this.components.get(key);
      if (placed !== undefined) {
        holder.$ref = pointerRef(placed);
        return;
      }
      if (siblings.length === 0 && isComponentSlot(tokensOf(site.trail), section)) {
        this.components.set(key, tokensOf(site.trail));
      } else {
        const made = this.addComponent(section, site.kind, target, value, next);
        if (made !== undefined) {
          holder.$ref = pointerRef(made);
          return;
        }
      }
    }
    if (site.chain?.has(key)) {
      const copied = this.copies.get(key);
      if (allowsRef && copied !== undefined) {
        holder.$ref = pointerRef(copied);
        return;
      }
      throw this.invalid({
        ...whereOf(site, this.rootFile),
        message: `has a $ref ${JSON.stringify(holder.$ref)} that names a value holding it, where OpenAPI allows no reference: the value would never end`,
      });
    }
    this.copyInto(site, target, key, value, siblings, next);
  }

  private copyInto(
    site: Item,
    target: Target,
    key: string,
    value: unknown,
    siblings: string[],
    next: Item[],
  ): void {
    const holder = site.node as Record<string, unknown>;
    const copy = structuredClone(value);
    const merged =
      isPlainObject(copy) && siblings.length > 0
        ? { ...copy, ...Object.fromEntries(siblings.map((name) => [name, holder[name]])) }
        : copy;
    this.replace(site, merged);
    if (!this.copies.has(key)) this.copies.set(key, tokensOf(site.trail));
    if (typeof merged !== 'object' || merged === null) return;
    const { walked: _, ...placed } = site;
    next.push({
      ...placed,
      node: merged as Container,
      base: target.file,
      fileTrail: trailOf(target.tokens),
      chain: new Set([...(site.chain ?? []), key]),
      ...(siblings.length > 0 && isPlainObject(copy) ? { walked: new Set(siblings) } : {}),
    });
  }

  /** Puts a copy of `value` into `section` under a new name; undefined when the section is not an object. */
  private addComponent(
    section: string[],
    kind: Kind,
    target: Target,
    value: Record<string, unknown>,
    next: Item[],
  ): string[] | undefined {
    const holder = sectionOf(this.document, section);
    if (holder === undefined) return undefined;
    const name = uniqueName(holder, componentName(target));
    const copy = structuredClone(value);
    holder[name] = copy;
    const tokens = [...section, name];
    this.components.set(`${target.file}${pointerRef(target.tokens)}`, tokens);
    next.push({
      node: copy,
      parent: holder,
      trail: trailOf(tokens),
      position: kind === 'example' || kind === 'link' ? 'ref-or-data' : 'node',
      kind,
      ext: false,
      base: target.file,
      fileTrail: trailOf(target.tokens),
    });
    return tokens;
  }

  private mappingRef(site: MappingSite, target: Target, next: Item[]): string {
    if (target.file === this.rootFile) return pointerRef(target.tokens);
    const key = `${target.file}${pointerRef(target.tokens)}`;
    const placed = this.components.get(key);
    if (placed !== undefined) return pointerRef(placed);
    const value = this.valueOf({ ...site, node: { $ref: site.mapping[site.key] } }, target);
    const section = componentSection('schema', this.rules) as string[];
    const made = isPlainObject(value) ? this.addComponent(section, 'schema', target, value, next) : undefined;
    if (made === undefined) {
      throw this.invalid({
        ...whereOf(site, this.rootFile),
        message: `maps ${JSON.stringify(site.key)} to ${JSON.stringify(site.mapping[site.key])}, which is not a schema`,
      });
    }
    return pointerRef(made);
  }

  /** The value a target names, or a problem saying where the `$ref` and the missing value are. */
  private valueOf(site: Pick<Item, 'base' | 'fileTrail' | 'node'>, target: Target): unknown {
    const ref = JSON.stringify((site.node as Record<string, unknown>).$ref);
    const file = target.file === this.rootFile ? { value: this.document } : this.files.get(target.file);
    if (file !== undefined && 'text' in file) {
      if (target.tokens.length === 0) return file.text;
      throw this.invalid({
        ...whereOf(site, this.rootFile),
        message: `has a $ref to ${ref}, a pointer into a file that is neither JSON nor YAML: name the whole file`,
      });
    }
    const found = valueAt(file?.value, target.tokens);
    if (found.found) return found.value;
    throw this.invalid({
      ...whereOf(site, this.rootFile),
      message: `has a $ref to ${ref}, but ${shownFile(this.rootFile, target.file)} has nothing at #${target.fragment}: check the pointer`,
    });
  }

  private replace(site: Item, value: unknown): void {
    const container = site.parent as Container;
    const at = (site.trail as { key: string }).key;
    if (Array.isArray(container)) container[Number(at)] = value;
    else container[at] = value;
  }

  private invalid(problem: OpenApiProblem): OpenApiInvalidError {
    return new OpenApiInvalidError(this.label, [problem]);
  }
}
