// A minimal browser stand-in for HTTP tests: a cookie jar and fetch without auto-redirects. As
// the account's pages do, it sends the owner session's form token (from the sign-in's answer)
// with every request that changes something.
export class UserAgent {
  private readonly cookies = new Map<string, string>();
  /** The session's form token, once an account sign-in answered it. */
  formToken: string | undefined;

  /** The Cookie header this agent would send. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const method = (init.method ?? 'GET').toUpperCase();
    if (this.formToken && !['GET', 'HEAD'].includes(method) && !headers.has('x-csrf-token')) headers.set('x-csrf-token', this.formToken);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const gone = !value || attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a) || /max-age=0/i.test(a.trim()));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** The values of the cookies held (to check they never reach a log). */
  cookieValues(): string[] {
    return [...this.cookies.values()];
  }

  async postJson(url: string | URL, body: unknown): Promise<{ status: number; json: Record<string, unknown>; response: Response }> {
    const response = await this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (typeof json.csrf_token === 'string') this.formToken = json.csrf_token;
    return { status: response.status, json, response };
  }

  async getJson(url: string | URL): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await this.fetch(url, { headers: { accept: 'application/json' } });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }
}
