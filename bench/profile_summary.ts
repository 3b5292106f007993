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

export function summarizeProfile(file: string, top = 18): { buckets: ProfileShare[]; functions: ProfileShare[]; parts: ProfileShare[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  const parts = new Map<string, number>();
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
  };
}
