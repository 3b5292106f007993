// The Redis cost of a piece of work: commands through MONITOR (every command a client sends is
// one line, a script's inner commands are not) and round trips through the counting proxy the
// server under trace reaches Redis by (commands sent together are one). Background work (the
// webhook worker's polls) is measured idle for as long and subtracted.

import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { CountingProxy } from '../test/support/redis_counting_proxy.js';
import { sleep, waitUntil } from '../test/support/wait_until.js';

const blank = (key: string) =>
  key
    .replace(/0x[0-9a-fA-F]{40}/g, '<address>')
    .replace(/eip155:\d+:<address>/g, '<subject>')
    .replace(/[A-Za-z0-9_-]{16,}/g, '<id>');

/** The arguments of one MONITOR line (`+<time> [<db> <source>] "cmd" "arg" …`) and its source. */
function parseMonitorLine(line: string): { source: string; args: string[] } | undefined {
  const head = /^\+[\d.]+ \[\d+ ([^\]]+)\] /.exec(line);
  if (!head) return undefined;
  const args = [...line.slice(head[0].length).matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) =>
    match[1]!.replace(/\\x([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))).replace(/\\(.)/g, '$1'),
  );
  return { source: head[1]!, args };
}

/**
 * MONITOR on a socket of its own, read line by line: a client library in monitor mode can take
 * the first lines that arrive with MONITOR's OK for replies (ioredis's "Command queue state error").
 */
async function monitorWhile(url: string, work: () => Promise<unknown>): Promise<{ seen: string[]; inScripts: number }> {
  const target = new URL(url);
  const socket = connect(Number(target.port), target.hostname);
  const seen: string[] = [];
  let inScripts = 0;
  let pending = '';
  let monitoring = false;
  socket.on('data', (chunk: Buffer) => {
    pending += chunk.toString('latin1');
    const lines = pending.split('\r\n');
    pending = lines.pop()!;
    for (const raw of lines) {
      if (raw === '+OK') monitoring = true;
      const parsed = parseMonitorLine(raw);
      if (parsed?.source === 'lua') inScripts++;
      if (!parsed || parsed.source === 'lua' || !parsed.args.length) continue;
      const { args } = parsed;
      const command = args[0]!.toUpperCase();
      // A script is named by its first key, so that repeated scripts show what they touch.
      const key = command === 'EVALSHA' || command === 'EVAL' ? (Number(args[2]) > 0 ? args[3] : `(${args[0]!.toLowerCase()} without keys)`) : args[1];
      const line = `${command} ${key ? blank(key.split('\n')[0]!) : ''}`.trim();
      if (!line.startsWith('INFO') && !line.startsWith('MONITOR')) seen.push(line);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write('MONITOR\r\n');
  // MONITOR's OK: every command from then on is in the feed.
  await waitUntil('MONITOR is on', () => monitoring);
  try {
    await work();
  } finally {
    // A grace for writes the server may make after it has answered: nothing marks their end.
    await sleep(50);
    socket.destroy();
  }
  return { seen, inScripts };
}

/**
 * commandsPerLogin: the commands the server sent; withScriptsPerLogin: those and the commands its
 * scripts ran inside Redis (each is Redis's work).
 */
export type RedisTrace = { commandsOfOne: string[]; commandsPerLogin: number; withScriptsPerLogin: number; roundTripsPerLogin: number; chainRoundTripsPerLogin: number };

/** One login's commands, then `repeats` logins' commands and round trips (Redis and chain) per login. */
export async function traceRedis(
  url: string,
  counting: CountingProxy,
  chain: { requests(): number },
  once: () => Promise<unknown>,
  repeats = 20,
): Promise<RedisTrace> {
  const { seen: commandsOfOne } = await monitorWhile(url, once);
  let elapsed = 0;
  let writes = 0;
  let chainRequests = 0;
  const all = await monitorWhile(url, async () => {
    const [started, writes0, chain0] = [performance.now(), counting.writes(), chain.requests()];
    for (let i = 0; i < repeats; i++) await once();
    elapsed = performance.now() - started;
    writes = counting.writes() - writes0;
    chainRequests = chain.requests() - chain0;
  });
  let idleWrites = 0;
  let idleChain = 0;
  // Background polls come once a second or so: an idle stretch as short as the logins' would
  // catch one poll more or less by chance, so it lasts at least 5 s and is scaled to theirs.
  const idleMs = Math.max(elapsed, 5000);
  const idle = await monitorWhile(url, async () => {
    const [writes0, chain0] = [counting.writes(), chain.requests()];
    await sleep(idleMs);
    idleWrites = ((counting.writes() - writes0) * elapsed) / idleMs;
    // The chain proxy is shared: every running server's watcher polls through it.
    idleChain = ((chain.requests() - chain0) * elapsed) / idleMs;
  });
  const perLogin = (count: number) => Math.round((count / repeats) * 10) / 10;
  const idleShare = elapsed / idleMs;
  return {
    commandsOfOne,
    commandsPerLogin: perLogin(all.seen.length - idle.seen.length * idleShare),
    withScriptsPerLogin: perLogin(all.seen.length + all.inScripts - (idle.seen.length + idle.inScripts) * idleShare),
    roundTripsPerLogin: perLogin(writes - idleWrites),
    chainRoundTripsPerLogin: perLogin(Math.max(0, chainRequests - idleChain)),
  };
}
