// The parts of a link after its destination, shared by inline links (`[t](x "title")`) and link
// reference definitions (`[t]: x "title"`): the space before a title, and the title itself.

/** Past spaces and tabs with at most one line ending among them, before `to`. */
export function pastSpace(text: string, at: number, to: number): number {
  let lineEndings = 0;
  for (; at < to; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x0a) {
      lineEndings += 1;
      if (lineEndings > 1) break;
    } else if (code !== 0x20 && code !== 0x09 && code !== 0x0d) break;
  }
  return at;
}

/**
 * Past a link title (`"t"`, `'t'` or `(t)`) at `at`, before `to`; undefined when none starts there
 * or it does not close (a blank line ends it: a title holds no paragraph break).
 */
export function pastTitle(text: string, at: number, to: number): number | undefined {
  const open = text.charCodeAt(at);
  if (open !== 0x22 && open !== 0x27 && open !== 0x28) return undefined;
  const close = open === 0x28 ? 0x29 : open;
  for (let p = at + 1; p < to; p += 1) {
    const code = text.charCodeAt(p);
    if (code === 0x5c) p += 1;
    else if (code === close) return p + 1;
    else if (code === 0x0a && text.charCodeAt(p + 1) === 0x0a) return undefined;
    else if (open === 0x28 && code === 0x28) return undefined;
  }
  return undefined;
}
