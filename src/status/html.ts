// HTML built from template literals with every interpolated value escaped, unless it is markup
// this module built: text from the service, git or a configuration can never become markup.

/** Markup made by `html`: interpolated as it is. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** What may be interpolated: text (escaped), markup, lists of either, or nothing. */
export type HtmlValue = SafeHtml | string | number | undefined | null | false | readonly HtmlValue[];

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? '';
  values.forEach((value, i) => {
    markup += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map((item: HtmlValue) => render(item)).join('');
  return escapeHtml(String(value));
}

/** An http(s) address to link to; anything else (`javascript:`, relative, malformed) is not linked. */
export function safeHref(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
