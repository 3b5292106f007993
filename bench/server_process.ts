// A server under test as its own process, so its CPU time and memory can be read from /proc
// apart from the load driver's.
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from '../test/support/wait_until.js';

const TICKS_PER_SECOND = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

export type ServerProcess = {
  name: string;
  base: string;
  pid: number;
  /** CPU time of its threads so far, in milliseconds (nanosecond counts where the kernel keeps them). */
  cpuMs(): number;
  /** Resident memory, in MiB. */
  rssMiB(): number;
  /** The last 4000 bytes it wrote (its logs), for a failure to show. */
  output(): string;
  stop(): Promise<void>;
};

export async function startServerProcess(name: string, args: string[], env: Record<string, string>, port: number): Promise<ServerProcess> {
  // Its logs go to a file, as a container's log driver takes them at once: a pipe read by this
  // busy process would make the server's log writes wait, and count that against it.
  const logDir = mkdtempSync(join(tmpdir(), 'signet-bench-'));
  const logFile = join(logDir, 'output.log');
  const logFd = openSync(logFile, 'a');
  const child: ChildProcess = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  /** The last 4000 bytes it wrote. */
  const output = () => {
    const fd = openSync(logFile, 'r');
    try {
      const size = fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, 4000));
      readSync(fd, tail, 0, tail.length, size - tail.length);
      return tail.toString('utf8');
    } finally {
      closeSync(fd);
    }
  };
  const base = `http://127.0.0.1:${port}`;
  await waitUntil(
    `${name} answers its discovery document`,
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${output()}`);
      return fetch(`${base}/.well-known/openid-configuration`, { headers: { 'x-forwarded-proto': 'https' } })
        .then((response) => response.ok)
        .catch(() => false);
    },
    { timeoutMs: 30_000, everyMs: 100, detail: output },
  );
  const pid = child.pid!;
  const hasSchedstat = existsSync(`/proc/${pid}/schedstat`);
  return {
    name,
    base,
    pid,
    cpuMs() {
      // Each thread's time on a CPU in ns (schedstat): stat counts in clock ticks of 10 ms, a
      // step of 1 % of a short round's CPU. Node's threads (the main one, libuv's, V8's) live as
      // long as the process; a thread that ended would take its time out of the sum.
      if (hasSchedstat) {
        let ns = 0;
        for (const task of readdirSync(`/proc/${pid}/task`)) {
          try {
            ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
          } catch {
            // A thread that ended between the listing and the read.
          }
        }
        return ns / 1e6;
      }
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // Fields 14 and 15 of stat (utime, stime), counted after the command name.
      return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
    },
    output,
    rssMiB() {
      const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((entry) => entry.startsWith('VmRSS:'))!;
      return Number(line.replace(/\D+/g, '')) / 1024;
    },
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }).finally(() => rmSync(logDir, { recursive: true, force: true })),
  };
}
