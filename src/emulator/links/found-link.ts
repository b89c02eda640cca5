// A link as the service's link finder reports it: the address as written (escapes and character
// references resolved), how it was written, and where.

/**
 * `link` `[t](href)`, `image` `![alt](src)`, `autolink` `<https://x>`, `literal` a bare address in
 * text (`https://x`, `www.x`, `a@b.c`), `definition` `[id]: href`, `html` `<a href>` or `<img src>`.
 */
export type FoundLinkKind = 'link' | 'image' | 'autolink' | 'literal' | 'definition' | 'html';

export interface FoundLink {
  kind: FoundLinkKind;
  href: string;
  /**
   * UTF-16 offset in the page's markdown where the link is written: its `[` or `!` (a definition:
   * its `[`), an autolink's `<`, a bare address's first character, an HTML attribute's value.
   */
  offset: number;
}
