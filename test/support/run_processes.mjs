// The processes a test run starts (anvil, redis-server, Chromium, Signet processes) and the
// stopping of those it leaves behind, read from /proc (Linux; elsewhere every function here
// finds nothing). Plain Node, no dependency: scripts/test.mjs and Jest's global set-up,
// teardown and test environment (jest.config.js) all use it.
//
// Two ways a process is known to belong to a run:
// - it descends from the process that started it (a test file's leftovers, at the file's end);
// - it carries RUN_MARKER=<the run's id> in its environment, which every process a test starts
//   inherits unless given an environment of its own (the run's leftovers, at the run's end:
//   what a crashed or force-stopped Jest worker left behind has no parent to descend from).
import { readdirSync, readFileSync } from 'node:fs';

export const RUN_MARKER = 'SIGNET_TEST_RUN';

/** Every process: pid, parent, process group, state (Z: exited, not yet collected) and name. */
export function processTable() {
  let names;
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const table = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.push({
        pid: Number(name),
        command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        state: fields[0],
        ppid: Number(fields[1]),
        pgid: Number(fields[2]),
      });
    } catch {
      // it exited while being read
    }
  }
  return table;
}

/** The live children of `pid`. */
export function childrenOf(pid, table = processTable()) {
  return table.filter((each) => each.ppid === pid && each.state !== 'Z');
}

/** The live processes under the given ones (children, their children, …), the given ones first. */
export function withDescendants(roots, table = processTable()) {
  const found = [...roots];
  for (let i = 0; i < found.length; i++) found.push(...childrenOf(found[i].pid, table));
  return found;
}

/** The live processes carrying RUN_MARKER=<run>, except this process and its ancestors. */
export function processesOfRun(run, table = processTable()) {
  if (!run) return [];
  const entry = `${RUN_MARKER}=${run}`;
  const byPid = new Map(table.map((each) => [each.pid, each]));
  const spared = new Set();
  for (let pid = process.pid; pid > 0 && !spared.has(pid); pid = byPid.get(pid)?.ppid ?? 0) spared.add(pid);
  return table.filter((each) => {
    if (each.state === 'Z' || spared.has(each.pid)) return false;
    try {
      return readFileSync(`/proc/${each.pid}/environ`, 'utf8').split('\0').includes(entry);
    } catch {
      return false;
    }
  });
}

/**
 * Kills the given processes with SIGKILL (with their process group when they lead one, as
 * Chromium does) and waits, up to a second, until they are gone. Returns them.
 */
export async function killAll(processes) {
  for (const each of processes) {
    try {
      process.kill(each.pgid === each.pid ? -each.pid : each.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  const pids = new Set(processes.map((each) => each.pid));
  const deadline = Date.now() + 1000;
  while (Date.now() < deadline && processTable().some((each) => pids.has(each.pid) && each.state !== 'Z')) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return processes;
}

/** "anvil (1234), redis-server (1240)" */
export function namesOf(processes) {
  return processes.map((each) => `${each.command} (${each.pid})`).join(', ');
}
