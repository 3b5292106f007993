// Where a server's CPU went, from a V8 .cpuprofile (node --cpu-prof): self time grouped by
// package (node_modules/<name>), by Signet's own files, by node internals, and GC.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

function bucketOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)' || functionName === '(program)') return functionName;
  if (!url) return `native ${functionName || '(anonymous)'}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const own = /\/(?:dist|dist-bench|src)\/(.+)$/.exec(url);
  return own ? `signet ${own[1]}` : url;
}

export type ProfileShare = { what: string; percent: number };

export function summarizeProfile(file: string, top = 18): { buckets: ProfileShare[]; functions: ProfileShare[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
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
  });
  const share = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, time]) => ({ what, percent: Number(((100 * time) / total).toFixed(1)) }));
  return { buckets: share(buckets), functions: share(functions) };
}

export function newestProfile(dir: string): string | undefined {
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .map((name) => join(dir, name));
  return files.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}
