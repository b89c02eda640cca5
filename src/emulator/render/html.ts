// The local service's own escaping template for its few HTML pages: every interpolated value is
// escaped unless it is markup built here, so that a title or a path can never become markup.

/** Markup made by `html`: interpolated as it is. */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

/** What may be interpolated: text (escaped), markup, lists of either, or nothing. */
export type HtmlValue = SafeHtml | string | number | undefined | null | false | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

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
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}
