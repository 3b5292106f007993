// An HTTP request with full control of the bytes and headers (Content-Length that lies,
// chunked bodies, invalid UTF-8), on a fresh connection, for the malformed-input tests.
import { request } from 'node:http';

export type RawAnswer = { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: unknown };

export type RawRequest = {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length), in pieces of this size. */
  chunkSize?: number;
};

export function rawRequest(url: string, options: RawRequest = {}): Promise<RawAnswer> {
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (body && !options.chunkSize && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(body.length);
  }
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(url, { method: options.method ?? 'POST', headers, agent: false }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
      });
      response.on('error', reject);
    });
    // The server may answer (413, 415) and close before the whole body is sent: not a failure.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (body && options.chunkSize) {
      for (let at = 0; at < body.length; at += options.chunkSize) req.write(body.subarray(at, at + options.chunkSize));
      req.end();
    } else {
      req.end(body);
    }
  });
}
