// Types of run_processes.mjs (plain JavaScript, so that scripts/test.mjs and Jest's set-up
// can load it without a build), for the TypeScript tests that use it.
export declare const RUN_MARKER: 'SIGNET_TEST_RUN';
export type ProcessEntry = { pid: number; command: string; state: string; ppid: number; pgid: number };
export declare function processTable(): ProcessEntry[];
export declare function childrenOf(pid: number, table?: ProcessEntry[]): ProcessEntry[];
export declare function withDescendants(roots: ProcessEntry[], table?: ProcessEntry[]): ProcessEntry[];
export declare function processesOfRun(run: string | undefined, table?: ProcessEntry[]): ProcessEntry[];
export declare function killAll(processes: ProcessEntry[]): Promise<ProcessEntry[]>;
export declare function namesOf(processes: ProcessEntry[]): string;
