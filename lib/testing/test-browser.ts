// A browser as far as a sign-in across two servers needs one: a cookie jar kept per host name and
// path (cookies ignore ports, as in a real browser), redirects followed by hand, the Sec-Fetch-Site
// and Origin headers a browser adds (which Toolroom's request gate reads), and HTML forms submitted.

interface Cookie {
  name: string;
  value: string;
  host: string;
  path: string;
}

export interface Page {
  url: string;
  status: number;
  text: string;
}

const SITES = ["same-origin", "same-site", "cross-site"] as const;

function relation(from: URL, to: URL): (typeof SITES)[number] {
  if (from.origin === to.origin) return "same-origin";
  return from.protocol === to.protocol && from.hostname === to.hostname ? "same-site" : "cross-site";
}

const decodeHtml = (text: string) =>
  text
    .replace(/&#x2F;/gi, "/")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

export class TestBrowser {
  private jar: Cookie[] = [];

  /** Cookies this browser holds for `url`'s host, by name (the latest wins). */
  cookiesFor(url: string): Map<string, string> {
    const target = new URL(url);
    return new Map(this.jar.filter((c) => this.matches(c, target)).map((c) => [c.name, c.value]));
  }

  /** A fetch from a page on `from` (the app's own script, say): Origin and Sec-Fetch-Site as a browser sets them. */
  async fetch(url: string, init: { from: string; method?: string; json?: unknown }): Promise<Response> {
    const target = new URL(url);
    const from = new URL(init.from);
    const headers: Record<string, string> = { Origin: from.origin, "Sec-Fetch-Site": relation(from, target), "Sec-Fetch-Mode": "cors" };
    if (init.json !== undefined) headers["Content-Type"] = "application/json";
    return this.send(target, {
      method: init.method ?? (init.json === undefined ? "GET" : "POST"),
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  }

  /**
   * Goes to `url` as a top-level navigation from `from` (none: typed in), following redirects while
   * `follow(next)` says so; returns the last page fetched and where the browser would go next.
   */
  async navigate(url: string, options: { from?: string; follow: (next: URL) => boolean; post?: URLSearchParams }): Promise<Page & { next: string | null }> {
    const chain = options.from ? [new URL(options.from)] : [];
    let target = new URL(url);
    let post = options.post;
    for (let hop = 0; hop < 20; hop++) {
      const site = chain.length ? SITES[Math.max(...chain.map((from) => SITES.indexOf(relation(from, target))))]! : "none";
      const headers: Record<string, string> = { "Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document" };
      if (post) {
        headers["Content-Type"] = "application/x-www-form-urlencoded";
        headers.Origin = chain.at(-1)?.origin ?? "null";
      }
      const response = await this.send(target, { method: post ? "POST" : "GET", headers, body: post?.toString() });
      const text = await response.text();
      const location = response.headers.get("location");
      const page = { url: target.toString(), status: response.status, text };
      if (response.status < 300 || response.status >= 400 || !location) return { ...page, next: null };
      const next = new URL(location, target);
      if (!options.follow(next)) return { ...page, next: next.toString() };
      chain.push(target);
      target = next;
      // 302 and 303 after a POST continue as a GET, as browsers do.
      post = undefined;
    }
    throw new Error(`more than 20 redirects from ${url}`);
  }

  /** Submits the page's form (action, hidden fields, plus `fields`), following redirects as `navigate` does. */
  async submit(page: Page, fields: Record<string, string>, follow: (next: URL) => boolean): Promise<Page & { next: string | null }> {
    const form = /<form[^>]*\baction="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(page.text);
    if (!form) throw new Error(`no form on ${page.url} (${page.status}): ${page.text.slice(0, 300)}`);
    const post = new URLSearchParams();
    for (const input of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*>/gi)) {
      const name = /name="([^"]*)"/.exec(input[0])?.[1];
      if (name) post.set(name, decodeHtml(/value="([^"]*)"/.exec(input[0])?.[1] ?? ""));
    }
    for (const [name, value] of Object.entries(fields)) post.set(name, value);
    return this.navigate(new URL(decodeHtml(form[1]!), page.url).toString(), { from: page.url, follow, post });
  }

  private matches(cookie: Cookie, target: URL): boolean {
    if (cookie.host !== target.hostname) return false;
    return target.pathname === cookie.path || target.pathname.startsWith(cookie.path.endsWith("/") ? cookie.path : `${cookie.path}/`);
  }

  private async send(target: URL, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Response> {
    const cookie = [...this.cookiesFor(target.toString())].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(target, { ...init, headers: { ...init.headers, ...(cookie ? { Cookie: cookie } : {}) }, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) this.keep(target, line);
    return response;
  }

  private keep(from: URL, line: string): void {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    const eq = pair!.indexOf("=");
    const name = pair!.slice(0, eq);
    const value = pair!.slice(eq + 1);
    const attribute = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const path = attribute("path") ?? (from.pathname.slice(0, from.pathname.lastIndexOf("/")) || "/");
    const maxAge = attribute("max-age");
    const expires = attribute("expires");
    const gone = (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) <= Date.now());
    this.jar = this.jar.filter((c) => !(c.name === name && c.host === from.hostname && c.path === path));
    if (!gone) this.jar.push({ name, value, host: from.hostname, path });
  }
}
