/**
 * HTML of the provider's pages, escaped by construction: `html\`...\`` escapes every
 * interpolated value unless it is itself the result of `html` (already safe). So a page cannot
 * forget to escape an e-mail address, a message or a URL: only literal template text is raw.
 */

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

/** A fragment of markup that is already safe to insert as is. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

/** Values: strings and numbers are escaped, SafeHtml inserted, arrays joined, nullish and false dropped. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += fragment(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

function fragment(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(fragment).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

const style = `
  :root { color-scheme: light dark; }
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; display: flex; justify-content: center; }
  main { width: 100%; max-width: 24rem; padding: 3rem 1.5rem; }
  h1 { font-size: 1.5rem; margin: 0 0 1.5rem; }
  label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
  input { box-sizing: border-box; width: 100%; padding: 0.6rem; font: inherit; border: 1px solid #888; border-radius: 4px; }
  button { margin-top: 1.5rem; width: 100%; padding: 0.7rem; font: inherit; font-weight: 600; border: 0; border-radius: 4px; background: #1f5fbf; color: #fff; cursor: pointer; }
  .message { padding: 0.75rem; border-radius: 4px; background: #fde8e8; color: #8a1c1c; }
  .notice { padding: 0.75rem; border-radius: 4px; background: #e6f4ea; color: #1e5631; }
`;

/** A whole page: UTF-8, inline style only, no scripts, no external assets. */
export function renderPage(title: string, body: SafeHtml): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${new SafeHtml(style)}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`.value;
}

/** A page that only says something (errors, confirmations). */
export function renderMessagePage(
  title: string,
  text: string,
  options: { kind?: 'message' | 'notice' | 'plain'; link?: { href: string; label: string } } = {},
): string {
  const kind = options.kind ?? 'plain';
  const paragraph =
    kind === 'plain' ? html`<p>${text}</p>` : html`<p class="${kind}" role="status">${text}</p>`;
  const link = options.link ? html`<p><a href="${options.link.href}">${options.link.label}</a></p>` : '';
  return renderPage(
    title,
    html`<h1>${title}</h1>
${paragraph}
${link}`,
  );
}
