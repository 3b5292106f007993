// A URL the address check refuses is answered before anything connects, so its time says
// nothing of the port behind it: registrations (RFC 7591, raw HTTP) naming a sector_identifier_uri
// (which the engine fetches during registration) or a jwks_uri on a loopback port that is open
// (a listener that accepts and never answers, as a TLS handshake to a plain service stalls) and
// on one that is closed are answered alike, fast, and the open port sees no connection.
import { REFUSED_URL_ANSWER_MS, REFUSED_URL_SPREAD_MS } from '../support/bounds.js';
import { type ConnectionRecorder, startConnectionRecorder } from '../support/connection_recorder.js';
import { freePort } from '../support/free_port.js';
import { type Harness, startSignet, WEBSITE } from '../support/signet_harness.js';

/** Rounds per port, taken in turns (open, closed, open…) so that load on the host weighs on both. */
const ROUNDS = 9;

let h: Harness;
let open: ConnectionRecorder;
let closedPort: number;

beforeAll(async () => {
  open = await startConnectionRecorder();
  closedPort = await freePort();
  // Private targets are NOT allowed: the production setting.
  h = await startSignet({ clients: [WEBSITE], configure: () => ({ clientRegistration: 'open' }) });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await open?.close();
});

/** The milliseconds a registration takes to be answered, and the answer. */
async function timedRegistration(metadata: Record<string, unknown>) {
  const started = performance.now();
  const response = await fetch(`${h.issuer}/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
  const json = (await response.json()) as { error?: string; error_description?: string };
  return { ms: performance.now() - started, status: response.status, error: json.error };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

test.each([
  [
    'sector_identifier_uri',
    (port: number) => ({ redirect_uris: ['https://shop.example/callback'], sector_identifier_uri: `https://127.0.0.1:${port}/sector` }),
  ],
  [
    'jwks_uri',
    (port: number) => ({
      grant_types: ['client_credentials'],
      response_types: [],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks_uri: `https://127.0.0.1:${port}/jwks`,
    }),
  ],
])('a %s on loopback: refused as fast with the port open as closed, and never connected', async (_field, urlOf) => {
  const times = { open: [] as number[], closed: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [which, port] of [
      ['open', open.port],
      ['closed', closedPort],
    ] as const) {
      const answer = await timedRegistration({ client_name: `Timed ${which}`, ...urlOf(port) });
      expect({ status: answer.status, error: answer.error }).toEqual({ status: 400, error: 'invalid_client_metadata' });
      times[which].push(answer.ms);
    }
  }
  const openMs = median(times.open);
  const closedMs = median(times.closed);
  expect(Math.max(...times.open, ...times.closed)).toBeLessThan(REFUSED_URL_ANSWER_MS);
  expect(Math.abs(openMs - closedMs)).toBeLessThan(REFUSED_URL_SPREAD_MS);
  expect(open.connections).toEqual([]);
});
