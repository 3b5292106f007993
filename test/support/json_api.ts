// Calls Signet's JSON API as a service or an owner would: an API key, a bearer token or a
// browser's cookies (a UserAgent), a JSON body; answers the status, the JSON and the headers.
import type { UserAgent } from './user_agent.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests read into answers of many shapes.
export type Json = Record<string, any>;

export type ApiOptions = { key?: string; token?: string; body?: unknown; agent?: UserAgent };

/** The caller for one Signet; `issuer` is read at each call (a test file starts Signet in beforeAll). */
export function jsonApi(issuer: () => string) {
  return async (method: string, path: string, options: ApiOptions = {}) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.key) headers['x-api-key'] = options.key;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const init = { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) };
    const url = `${issuer()}${path}`;
    const response = options.agent ? await options.agent.fetch(url, init) : await fetch(url, init);
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : {}) as Json, headers: response.headers, location: response.headers.get('location') };
  };
}
