// A link reference definition, `[id]: destination "title"`, where a reference link's address is
// written. A footnote (`[^1]: text`) is not one: its text is a paragraph's.
import { decodeDestination, isAsciiPunctuation } from './decode-destination.js';
import { pastSpace, pastTitle } from './link-title.js';

const MAX_LABEL = 999;

/**
 * The definition starting at the `[` at `at`: its destination, resolved, and where the line after
 * it starts; undefined when no valid definition starts there.
 */
export function linkDefinitionAt(
  text: string,
  at: number,
): { label: string; href: string; next: number } | undefined {
  if (text.charCodeAt(at + 1) === 0x5e) return undefined;
  let p = at + 1;
  let visible = false;
  for (; p < text.length && p - at <= MAX_LABEL + 1; p += 1) {
    const code = text.charCodeAt(p);
    if (code === 0x5c && isAsciiPunctuation(text.charCodeAt(p + 1))) {
      p += 1;
      visible = true;
    } else if (code === 0x5b) return undefined;
    else if (code === 0x5d) break;
    else if (code === 0x0a && text.charCodeAt(p + 1) === 0x0a) return undefined;
    else if (code > 0x20) visible = true;
  }
  if (!visible || text.charCodeAt(p) !== 0x5d || text.charCodeAt(p + 1) !== 0x3a) return undefined;
  const label = text.slice(at + 1, p);
  p = pastSpace(text, p + 2, text.length);

  let raw: string;
  if (text.charCodeAt(p) === 0x3c) {
    const start = p + 1;
    for (p = start; p < text.length; p += 1) {
      const code = text.charCodeAt(p);
      if (code === 0x5c) p += 1;
      else if (code === 0x3e || code === 0x3c || code === 0x0a) break;
    }
    if (text.charCodeAt(p) !== 0x3e) return undefined;
    raw = text.slice(start, p);
    p += 1;
  } else {
    const start = p;
    let depth = 0;
    for (; p < text.length; p += 1) {
      const code = text.charCodeAt(p);
      if (code <= 0x20 || code === 0x7f) break;
      if (code === 0x5c && isAsciiPunctuation(text.charCodeAt(p + 1))) p += 1;
      else if (code === 0x28) depth += 1;
      else if (code === 0x29) depth -= 1;
      if (depth < 0) return undefined;
    }
    if (p === start || depth !== 0) return undefined;
    raw = text.slice(start, p);
  }
  const href = decodeDestination(raw);
  // The line may end after the destination; a title may follow, on the same line or the next.
  const afterDestination = restOfLineIsBlank(text, p);
  const titleAt = pastSpace(text, p, text.length);
  if (titleAt > p) {
    const titleEnd = pastTitle(text, titleAt, text.length);
    if (titleEnd !== undefined) {
      const afterTitle = restOfLineIsBlank(text, titleEnd);
      if (afterTitle !== undefined) return { label, href, next: afterTitle };
    }
  }
  return afterDestination === undefined ? undefined : { label, href, next: afterDestination };
}

/** The start of the next line when only spaces and tabs are left on this one; else undefined. */
function restOfLineIsBlank(text: string, at: number): number | undefined {
  for (let p = at; p < text.length; p += 1) {
    const code = text.charCodeAt(p);
    if (code === 0x0a) return p + 1;
    if (code !== 0x20 && code !== 0x09 && code !== 0x0d) return undefined;
  }
  return text.length + 1;
}
