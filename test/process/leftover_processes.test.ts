// No process outlives a failed test run (jest.config.js, test/support/run_processes.mjs). A
// small Jest run of the fixtures in test/process/fixtures, on a PATH without redis-server, as
// on a machine that lacks it: one suite's set-up fails half way (the harness's anvil has
// started when redis-server cannot), one suite leaves its anvil running, and one kills its own
// Jest worker with an anvil running. Once that run has ended, every process they started is
// gone, and the run has said which ones it had to kill.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/base/project_root.js';
import { killAll, processesOfRun, processTable, RUN_MARKER } from '../support/run_processes.mjs';

test('a run whose suites fail in set-up, leak an anvil or lose their worker leaves no process behind', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'signet-leftovers-'));
  // PATH: this Node alone. No redis-server, whatever folder Node lives in.
  mkdirSync(join(dir, 'bin'));
  symlinkSync(process.execPath, join(dir, 'bin', 'node'));
  const record = join(dir, 'started');
  writeFileSync(record, '');
  const run = `leftovers-${process.pid}-${Date.now()}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: join(dir, 'bin'),
    NODE_OPTIONS: '--experimental-vm-modules',
    [RUN_MARKER]: run,
    SIGNET_LEFTOVER_RECORD: record,
  };
  delete env.JEST_WORKER_ID;
  try {
    const jest = spawn(
      process.execPath,
      [
        join(projectRoot, 'node_modules', 'jest', 'bin', 'jest.js'),
        '--selectProjects',
        'suite',
        '--testMatch',
        '<rootDir>/test/process/fixtures/*.fixture.ts',
        // Two workers (a fresh cache has no timings that would run the files in band).
        '--maxWorkers=2',
        '--cacheDirectory',
        join(dir, 'cache'),
      ],
      { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    jest.stdout.on('data', (chunk: Buffer) => (output += chunk));
    jest.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const status = await new Promise<number | null>((resolve) => jest.once('exit', resolve));

    const started = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [fixture, pid, command] = line.split(' ');
        return { fixture, pid: Number(pid), command };
      });
    // Each fixture did start its anvil (the setup_fails one before redis-server failed).
    for (const fixture of ['setup_fails', 'leaves_anvil', 'worker_dies']) {
      expect({ fixture, anvils: started.filter((each) => each.fixture === fixture && each.command === 'anvil').length }).toEqual({
        fixture,
        anvils: 1,
      });
    }
    expect(status).toBe(1);
    expect(output).toContain('spawn redis-server ENOENT');

    // None of them runs now (a killed orphan may linger as a zombie until PID 1 collects it).
    const alive = processTable().filter((each) => each.state !== 'Z' && started.some((one) => one.pid === each.pid && one.command === each.command));
    expect(alive).toEqual([]);
    expect(processesOfRun(run)).toEqual([]);

    // Who stopped what: the harness its own anvil (so its file has nothing left to kill), the
    // test environment the anvil a file left, the global teardown the anvil of a dead worker.
    expect(output).not.toMatch(/setup_fails\.fixture\.ts left/);
    const leak = started.find((each) => each.fixture === 'leaves_anvil')!;
    expect(output).toContain(`leaves_anvil.fixture.ts left 1 process(es) running, killed at its end: anvil (${leak.pid})`);
    const orphan = started.find((each) => each.fixture === 'worker_dies')!;
    expect(output).toContain(`the test run left 1 process(es) running, killed: anvil (${orphan.pid})`);
  } finally {
    await killAll(processesOfRun(run));
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
