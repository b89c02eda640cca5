// Text for XML attributes and elements: the five special characters escaped, and the characters
// XML 1.0 cannot hold at all (most control characters, lone surrogates) replaced, so that a page
// title or an address from the service never makes the document unreadable.

const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** An attribute value: also line breaks and tabs as references, which attribute normalisation would turn into spaces. */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
