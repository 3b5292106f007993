// The Prometheus scrape endpoint, on its own port (METRICS_PORT) so it is never exposed with
// the public issuer: GET /metrics in the text format. Under several workers the primary
// process serves it and sums every worker's metrics (prom-client's AggregatorRegistry).
import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

export async function startMetricsServer(port: number, metricsText: () => Promise<{ text: string; contentType: string }>, host?: string): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":"not_found","error_description":"only GET /metrics here","reason":"not_found"}');
      return;
    }
    metricsText().then(
      ({ text, contentType }) => response.writeHead(200, { 'content-type': contentType }).end(text),
      () =>
        response
          .writeHead(503, { 'content-type': 'application/json' })
          .end('{"error":"temporarily_unavailable","error_description":"metrics could not be collected","reason":"metrics_unavailable"}'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}

export function registryText(registry: Registry): () => Promise<{ text: string; contentType: string }> {
  return async () => ({ text: await registry.metrics(), contentType: registry.contentType });
}
