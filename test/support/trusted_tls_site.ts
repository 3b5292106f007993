// A client's https site for tests: a real TLS server on 127.0.0.1 with a certificate made for
// the test's host names (openssl), which this process trusts beside the usual CAs while the
// site runs, so Signet's fetches check TLS as in production. The test's DNS and dial hook
// (pinned_request.ts) bring the host names here.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';

export type TrustedTlsSite = { port: number; close(): Promise<void> };

export async function startTrustedTlsSite(hosts: readonly string[], handler: RequestListener): Promise<TrustedTlsSite> {
  const dir = mkdtempSync(join(tmpdir(), 'signet-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  const subjectAltName = hosts.map((host) => `DNS:${host}`).join(',');
  const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
  execFileSync('openssl', [...args, '-subj', `/CN=${hosts[0]}`, '-addext', `subjectAltName=${subjectAltName}`, '-keyout', keyFile, '-out', certFile], {
    stdio: 'ignore',
  });
  const key = readFileSync(keyFile);
  const cert = readFileSync(certFile, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const defaults = getCACertificates('default');
  setDefaultCACertificates([...defaults, cert]);
  const server = createServer({ key, cert }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      setDefaultCACertificates(defaults);
    },
  };
}
