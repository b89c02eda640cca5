import { describe, expect, it } from 'vitest';
import { escapeHtml, html, SafeHtml, safeHref } from '../../../src/status/html.js';

describe('html', () => {
  it('escapes every interpolated text, and only markup it built passes as it is', () => {
    const subject = `<script>alert("x")</script> & 'quoted'`;
    const page = html`<td title="${subject}">${subject}</td>${html`<b>${'<i>'}</b>`}`;
    expect(page.markup).toBe(
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</td><b>&lt;i&gt;</b>',
    );
  });

  it('joins lists and leaves out nothing-values', () => {
    expect(html`${['a', html`<br>`, 'b<']}|${undefined}|${null}|${false}|${0}`.markup).toBe(
      'a<br>b&lt;||||0',
    );
  });

  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
    expect(new SafeHtml('<p>').toString()).toBe('<p>');
  });
});

describe('safeHref', () => {
  it('links http and https addresses only', () => {
    expect(safeHref('https://docs.example/app/s/1/change-requests/2')).toBe(
      'https://docs.example/app/s/1/change-requests/2',
    );
    expect(safeHref('http://127.0.0.1:4010/x')).toBe('http://127.0.0.1:4010/x');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('data:text/html,<script>')).toBeUndefined();
    expect(safeHref('/relative')).toBeUndefined();
    expect(safeHref(undefined)).toBeUndefined();
  });
});
