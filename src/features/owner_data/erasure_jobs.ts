// Erasure as a job recorded before it starts: the job (its identity, its state and the steps
// done) is in the store, a lease says which process runs it, and any process finishes a job
// whose runner died (a sweep takes over once the lease has lapsed). Steps are safe to repeat,
// so a step cut short is simply run again.
import { randomBytes } from 'node:crypto';
import type { IdentityKey } from '../../infra/chain/identity_key.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import { ERASURE_STEPS, type ErasureStep, type ErasureTarget } from './erasure_steps.js';

export type ErasureStatus = 'pending' | 'running' | 'done';

export type ErasureJob = {
  id: string;
  identity: IdentityKey;
  wallets: IdentityKey[];
  revoke_issued_claims: boolean;
  status: ErasureStatus;
  steps_done: ErasureStep[];
  requested_at: string;
  started_at: string | null;
  finished_at: string | null;
};

/** What anyone holding the job's id may read: its state, nothing personal. */
export type ErasureState = Pick<ErasureJob, 'id' | 'status' | 'steps_done' | 'requested_at' | 'started_at' | 'finished_at'> & {
  steps: readonly ErasureStep[];
};

export type ErasureSettings = {
  /** A runner that has not renewed its lease for this long is taken for dead. */
  leaseSeconds: number;
  /** How often each process looks for jobs whose runner died. */
  sweepMs: number;
  /** How long a finished job's state stays readable. */
  doneSeconds: number;
};

/** What a finished job holds in place of the identity it erased. */
const ERASED: IdentityKey = '0x0000000000000000000000000000000000000000';

export const ERASURE_DEFAULTS: ErasureSettings = { leaseSeconds: 30, sweepMs: 5000, doneSeconds: 30 * 86400 };

export function createErasureJobs(deps: {
  store: Store;
  run: Record<ErasureStep, (target: ErasureTarget) => Promise<void>>;
  settings?: Partial<ErasureSettings>;
  now: () => number;
  onFailure?: (error: unknown) => void;
  /** Called before each step (tests hold a step there to cut the process mid-erasure). */
  beforeStep?: (step: ErasureStep, job: ErasureJob) => Promise<void>;
}) {
  const { store } = deps;
  const settings = { ...ERASURE_DEFAULTS, ...deps.settings };
  const runner = randomBytes(8).toString('hex');
  const iso = () => new Date(deps.now()).toISOString();
  let sweep: NodeJS.Timeout | undefined;
  const running = new Set<string>();

  const find = async (id: string): Promise<ErasureJob | undefined> => {
    if (!/^[A-Za-z0-9_-]{16,64}$/.test(id)) return undefined;
    const raw = await store.get(keys.erasure(id));
    return raw ? (JSON.parse(raw) as ErasureJob) : undefined;
  };
  const save = (job: ErasureJob) => store.set(keys.erasure(job.id), JSON.stringify(job), job.status === 'done' ? settings.doneSeconds : undefined);

  /** Takes the job's lease for this process; false when another process holds it. */
  const claim = (id: string) => store.setIfAbsent(keys.erasureLease(id), runner, settings.leaseSeconds);

  /** Runs the job's remaining steps under the lease; false when another process holds it. */
  const execute = async (id: string, leased = false): Promise<boolean> => {
    if (running.has(id)) return false;
    if (!leased && !(await claim(id))) return false;
    running.add(id);
    try {
      let job = await find(id);
      if (!job || job.status === 'done') return true;
      job = { ...job, status: 'running', started_at: job.started_at ?? iso() };
      await save(job);
      const target: ErasureTarget = { identity: job.identity, wallets: job.wallets, revokeIssuedClaims: job.revoke_issued_claims };
      for (const step of ERASURE_STEPS) {
        if (job.steps_done.includes(step)) continue;
        await deps.beforeStep?.(step, job);
        await deps.run[step](target);
        job = { ...job, steps_done: [...job.steps_done, step] };
        // The step is recorded, and the lease renewed, before the next one starts.
        await Promise.all([save(job), store.set(keys.erasureLease(id), runner, settings.leaseSeconds)]);
      }
      // Done, the job forgets whose it was: its state is all that is kept.
      await save({ ...job, identity: ERASED, wallets: [], status: 'done', finished_at: iso() });
      await store.removeFromIndex(keys.openErasures(), id);
      await store.delete(keys.erasureLease(id));
      return true;
    } finally {
      running.delete(id);
    }
  };

  const runInBackground = (id: string) => {
    execute(id, true).catch((error: unknown) => deps.onFailure?.(error));
  };

  const resumeOpen = async (): Promise<void> => {
    const open = await store.indexMembers(keys.openErasures());
    await Promise.all(open.map((id) => execute(id).catch((error: unknown) => deps.onFailure?.(error))));
  };

  return {
    /** Records the job (before anything is erased), then starts it in this process. */
    async request(identity: IdentityKey, wallets: IdentityKey[], revokeIssuedClaims: boolean): Promise<ErasureJob> {
      const job: ErasureJob = {
        id: randomBytes(24).toString('base64url'),
        identity,
        wallets,
        revoke_issued_claims: revokeIssuedClaims,
        status: 'pending',
        steps_done: [],
        requested_at: iso(),
        started_at: null,
        finished_at: null,
      };
      await save(job);
      // The lease is taken before the job is listed as open, so another process's sweep finds
      // it held and leaves the job to this one until the lease lapses.
      await claim(job.id);
      await store.addToIndex(keys.openErasures(), job.id, 0);
      runInBackground(job.id);
      return job;
    },

    async state(id: string): Promise<ErasureState | undefined> {
      const job = await find(id);
      if (!job) return undefined;
      const { status, steps_done, requested_at, started_at, finished_at } = job;
      return { id, status, steps: ERASURE_STEPS, steps_done, requested_at, started_at, finished_at };
    },

    /** Runs every open job whose runner is gone (at start, then every sweep). */
    resumeOpen,

    start() {
      if (sweep) return;
      const sweepOnce = () => {
        resumeOpen().catch((error: unknown) => deps.onFailure?.(error));
      };
      sweepOnce();
      sweep = setInterval(sweepOnce, settings.sweepMs);
      sweep.unref();
    },

    stop() {
      if (sweep) clearInterval(sweep);
      sweep = undefined;
    },
  };
}

export type ErasureJobs = ReturnType<typeof createErasureJobs>;
