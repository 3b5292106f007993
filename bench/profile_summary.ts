// Where a server's CPU went, from a V8 .cpuprofile (node --cpu-prof): self time grouped by
// package (node_modules/<name>), by Signet's own files, by node internals, and GC.
import { readFileSync } from 'node:fs';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

function bucketOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  if (!url) return `native ${functionName || '(anonymous)'}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  // Node's fetch (undici) apart from the rest of node's internals; those by their folder.
  if (url.includes('internal/deps/undici')) return 'undici (node fetch)';
  if (url.startsWith('node:internal/')) return `node:internal/${url.slice(14).split('/')[0]!.replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  // Signet's own files, the same name from dist/ (Signet) and dist-bench/src/ (the floor).
  const own = /\/(?:dist-bench\/src|dist-bench|dist|src)\/(.+)$/.exec(url);
  return own ? `signet ${own[1]}` : url;
}

export type ProfileShare = { what: string; percent: number };

/**
 * Named parts of a login, as the share of samples with such a frame anywhere on the stack
 * (inclusive time: a part's callees count; parts may overlap).
 */
type Frame = ProfileNode['callFrame'];
const onStack = (has: (frame: Frame) => boolean) => (stack: Frame[]) => stack.some(has);
const SOCKET_WRITES = new Set(['writeUtf8String', 'writev', 'writeBuffer', 'writeString', 'writeLatin1String']);
const PARTS: { what: string; in: (stack: Frame[]) => boolean }[] = [
  { what: 'signature recovery (recover_message_signer)', in: onStack((f) => f.url.includes('wallet/recover_message_signer')) },
  { what: 'SIWE text (siwe package)', in: onStack((f) => f.url.includes('node_modules/siwe/')) },
  { what: 'oidc-provider', in: onStack((f) => f.url.includes('node_modules/oidc-provider/')) },
  { what: 'Redis client (ioredis)', in: onStack((f) => f.url.includes('node_modules/ioredis/')) },
  { what: 'Redis socket writes (syscalls)', in: (stack) => SOCKET_WRITES.has(stack[0]!.functionName) && stack.some((f) => f.url.includes('node_modules/ioredis/')) },
  { what: 'chain client (viem)', in: onStack((f) => f.url.includes('node_modules/viem/')) },
  { what: 'chain HTTP (rpc_fetch)', in: onStack((f) => f.url.includes('chain/rpc_fetch') || f.url.includes('undici')) },
  { what: 'JWT signing and JOSE (jose)', in: onStack((f) => f.url.includes('node_modules/jose/')) },
  { what: 'logging (pino and its scrubber)', in: onStack((f) => f.url.includes('node_modules/pino') || f.url.includes('observability/logger')) },
  { what: 'GC', in: onStack((f) => f.functionName === '(garbage collector)') },
];

/**
 * Who owns each sample: walking from the sampled frame toward the root, the first frame of one
 * of these owns it, so a middleware's own work and the native calls it makes count for it, and
 * what it calls of the engine or another owner does not (inclusive time would give every outer
 * middleware the whole request). The order decides between owners of the same frame.
 */
const signetFile = (folder: string) => (f: Frame) => new RegExp(`/(?:dist|dist-bench/src)/${folder}`).test(f.url);
const OWNERS: { what: string; has: (frame: Frame) => boolean }[] = [
  { what: 'security headers (CSP nonce)', has: signetFile('http/security_headers') },
  { what: 'request id, access line and metrics calls (request_observer)', has: signetFile('observability/request_observer') },
  { what: 'request context (AsyncLocalStorage propagation)', has: (f) => f.url.includes('async_local_storage') || f.url.includes('async_hooks') || signetFile('observability/request_context')(f) },
  { what: 'metrics (prom-client)', has: (f) => f.url.includes('node_modules/prom-client') || signetFile('observability/metrics')(f) },
  { what: 'logging (pino, logger)', has: (f) => f.url.includes('node_modules/pino') || f.url.includes('node_modules/sonic-boom') || signetFile('observability/logger')(f) },
  { what: 'rate limits', has: (f) => f.url.includes('node_modules/rate-limiter-flexible') || signetFile('rate_limits/')(f) },
  { what: 'Signet http/ (the rest of its stack)', has: signetFile('http/') },
  { what: 'account model (oidc/account)', has: signetFile('oidc/account') },
  { what: 'Signet, other', has: signetFile('') },
  { what: 'oidc-provider', has: (f) => f.url.includes('node_modules/oidc-provider/') },
  { what: 'Koa (koa, router, mount, compose)', has: (f) => /node_modules\/(koa|@koa\/router|koa-mount|koa-compose)\//.test(f.url) },
  { what: 'ioredis', has: (f) => f.url.includes('node_modules/ioredis/') },
  { what: 'jose', has: (f) => f.url.includes('node_modules/jose/') },
];
const UNOWNED = 'node (HTTP server, sockets, GC, other)';

export function summarizeProfile(file: string, top = 18): { buckets: ProfileShare[]; functions: ProfileShare[]; parts: ProfileShare[]; owners: ProfileShare[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  const parts = new Map<string, number>();
  const owners = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const delta = profile.timeDeltas[i] ?? 0;
    const bucket = bucketOf(node.callFrame);
    if (bucket === '(idle)') return;
    total += delta;
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + delta);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${bucket}`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
    const stack: Frame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) stack.push(byId.get(at)!.callFrame);
    for (const part of PARTS) if (part.in(stack)) parts.set(part.what, (parts.get(part.what) ?? 0) + delta);
    let owner = UNOWNED;
    for (const frame of stack) {
      const found = OWNERS.find((candidate) => candidate.has(frame));
      if (found) {
        owner = found.what;
        break;
      }
    }
    owners.set(owner, (owners.get(owner) ?? 0) + delta);
  });
  const share = (map: Map<string, number>, count = map.size) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([what, time]) => ({ what, percent: Number(((100 * time) / total).toFixed(1)) }));
  return {
    buckets: share(buckets),
    functions: share(functions, top),
    parts: PARTS.map(({ what }) => ({ what, percent: Number(((100 * (parts.get(what) ?? 0)) / total).toFixed(1)) })),
    owners: share(owners),
  };
}
