// The Redis commands one piece of work sends, through MONITOR: each command with its key's
// kind (the key with ids and addresses blanked), in order, to show where round trips go.
import { Redis } from 'ioredis';

const blank = (key: string) =>
  key
    .replace(/0x[0-9a-fA-F]{40}/g, '<address>')
    .replace(/eip155:\d+:<address>/g, '<subject>')
    .replace(/[A-Za-z0-9_-]{16,}/g, '<id>');

export async function traceRedis(url: string, work: () => Promise<unknown>): Promise<string[]> {
  const watcher = new Redis(url);
  const monitor = await watcher.monitor();
  const seen: string[] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    // Commands run inside a script are reported with source "lua": the script itself counts once.
    if (source === 'lua') return;
    const [command, key] = args;
    seen.push(`${command!.toUpperCase()} ${key ? blank(key) : ''}`.trim());
  });
  await new Promise((resolve) => setTimeout(resolve, 100));
  await work();
  await new Promise((resolve) => setTimeout(resolve, 100));
  monitor.disconnect();
  watcher.disconnect();
  return seen.filter((line) => !line.startsWith('INFO') && !line.startsWith('MONITOR'));
}
