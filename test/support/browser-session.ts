/**
 * A browser without a browser, for sign-in tests over real HTTP: fetch with a cookie jar,
 * redirects followed by hand (so the test sees every hop), and the forms of the provider's
 * pages read from their HTML. It stops before a redirect leaves for `stopAt` (the client's
 * redirect URI), where no server needs to listen: the code is read from the Location header.
 */

interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

export interface Page {
  url: URL;
  status: number;
  headers: Headers;
  html: string;
  /** Set when a redirect to `stopAt` ended the navigation: the callback URL with its query. */
  callback?: URL;
}

export interface HtmlForm {
  action: URL;
  method: string;
  fields: Record<string, string>;
}

export class BrowserSession {
  readonly #cookies = new Map<string, StoredCookie>();
  readonly #stopAt: string;
  readonly #headers: Record<string, string>;

  /**
   * `stopAt`: the redirect URI prefix that ends a navigation; `headers`: sent with every
   * request (e.g. X-Forwarded-For, as a proxy would add it).
   */
  constructor(options: { stopAt?: string; headers?: Record<string, string> } = {}) {
    this.#stopAt = options.stopAt ?? 'http://127.0.0.1:8765/callback';
    this.#headers = options.headers ?? {};
  }

  /** GET `url` and follow redirects. */
  async open(url: string | URL): Promise<Page> {
    return this.#navigate(new URL(url), { method: 'GET' });
  }

  /** Submit the page's (first or named) form with `values` over its fields, follow redirects. */
  async submit(page: Page, values: Record<string, string>, formIndex = 0): Promise<Page> {
    const form = formsOf(page)[formIndex];
    if (!form) throw new Error(`no form on ${page.url} (status ${page.status}): ${page.html.slice(0, 300)}`);
    return this.post(form.action, { ...form.fields, ...values });
  }

  /** POST a form body to `url` and follow redirects. */
  async post(url: string | URL, fields: Record<string, string>): Promise<Page> {
    return this.#navigate(new URL(url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  cookieNames(): string[] {
    return [...new Set([...this.#cookies.values()].map((cookie) => cookie.name))];
  }

  async #navigate(start: URL, init: RequestInit): Promise<Page> {
    let url = start;
    let request = init;
    for (let hop = 0; hop < 20; hop++) {
      const response = await fetch(url, {
        ...request,
        redirect: 'manual',
        headers: {
          ...this.#headers,
          ...(request.headers as Record<string, string>),
          accept: 'text/html',
          ...this.#cookieHeader(url),
        },
      });
      this.#store(response, url);
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        const next = new URL(location, url);
        if (next.href.startsWith(this.#stopAt)) {
          await response.body?.cancel();
          return { url, status: response.status, headers: response.headers, html: '', callback: next };
        }
        await response.body?.cancel();
        url = next;
        // 303 (and, as browsers do, 301/302 after POST) continue with GET; 307/308 keep the request.
        if (response.status !== 307 && response.status !== 308) request = { method: 'GET' };
        continue;
      }
      return { url, status: response.status, headers: response.headers, html: await response.text() };
    }
    throw new Error(`too many redirects from ${start}`);
  }

  #cookieHeader(url: URL): Record<string, string> {
    // Longer paths first, as browsers send them.
    const pairs = [...this.#cookies.values()]
      .filter((cookie) => url.pathname === cookie.path || url.pathname.startsWith(withSlash(cookie.path)))
      .sort((a, b) => b.path.length - a.path.length)
      .map((cookie) => `${cookie.name}=${cookie.value}`);
    return pairs.length > 0 ? { cookie: pairs.join('; ') } : {};
  }

  #store(response: Response, url: URL): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let path = url.pathname.slice(0, url.pathname.lastIndexOf('/')) || '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', attributeValue = ''] = attribute.split('=');
        const lower = key.trim().toLowerCase();
        if (lower === 'path' && attributeValue.trim().startsWith('/')) path = attributeValue.trim();
        if (lower === 'max-age' && Number(attributeValue) <= 0) expired = true;
        if (lower === 'expires' && Date.parse(attributeValue) <= Date.now()) expired = true;
      }
      const key = `${name}\n${path}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, { name, value, path });
    }
  }
}

function withSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

/** The forms of a page with their action, method and the values of their input fields. */
export function formsOf(page: Page): HtmlForm[] {
  const forms: HtmlForm[] = [];
  for (const match of page.html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attributes = attributesOf(match[1] ?? '');
    const fields: Record<string, string> = {};
    for (const input of (match[2] ?? '').matchAll(/<input\b([^>]*)>/gi)) {
      const inputAttributes = attributesOf(input[1] ?? '');
      if (inputAttributes.name !== undefined) fields[inputAttributes.name] = inputAttributes.value ?? '';
    }
    forms.push({
      action: new URL(attributes.action ?? page.url.href, page.url),
      method: (attributes.method ?? 'get').toLowerCase(),
      fields,
    });
  }
  return forms;
}

function attributesOf(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const match of text.matchAll(
    /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g,
  )) {
    attributes[(match[1] ?? '').toLowerCase()] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? '');
  }
  return attributes;
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, '&');
}

/** The visible text of a page (tags dropped, entities decoded, whitespace collapsed). */
export function textOf(page: Page): string {
  return decodeEntities(page.html.replace(/<style[\s\S]*?<\/style>/gi, '').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}
