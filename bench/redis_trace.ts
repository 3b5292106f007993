// The Redis round trips of a piece of work, through MONITOR: every command a client sends is
// one line (a script's inner commands are not), so lines are round trips. Background work
// (the webhook worker's polls) is measured idle for as long and subtracted.
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';

const blank = (key: string) =>
  key
    .replace(/0x[0-9a-fA-F]{40}/g, '<address>')
    .replace(/eip155:\d+:<address>/g, '<subject>')
    .replace(/[A-Za-z0-9_-]{16,}/g, '<id>');

async function monitorWhile(url: string, work: () => Promise<unknown>): Promise<string[]> {
  const watcher = new Redis(url);
  const monitor = await watcher.monitor();
  const seen: string[] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua') return;
    const [command, key] = args;
    const line = `${command!.toUpperCase()} ${key ? blank(key.split('\n')[0]!) : ''}`.trim();
    if (!line.startsWith('INFO') && !line.startsWith('MONITOR')) seen.push(line);
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  try {
    await work();
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 50));
    monitor.disconnect();
    watcher.disconnect();
  }
  return seen;
}

export async function traceRedis(url: string, once: () => Promise<unknown>, repeats = 10) {
  const commandsOfOne = await monitorWhile(url, once);
  let elapsed = 0;
  const all = await monitorWhile(url, async () => {
    const started = performance.now();
    for (let i = 0; i < repeats; i++) await once();
    elapsed = performance.now() - started;
  });
  const idle = await monitorWhile(url, () => new Promise((resolve) => setTimeout(resolve, elapsed)));
  return { commandsOfOne, roundTripsPerLogin: Math.round(((all.length - idle.length) / repeats) * 10) / 10 };
}
