// Where a watcher round failed, carried by what it threw: the round reports and counts its
// failure by stage, and an outage of the chain is told apart from one of the store.

/** Where a round failed: reading the chain, the store, or in a consent handler. */
export type WatchStage = 'chain' | 'store' | 'handler';

/** What a round step threw, with the stage it failed in. */
export class StageError extends Error {
  constructor(
    readonly stage: WatchStage,
    cause: unknown,
  ) {
    super(`chain watcher: ${stage} failed`, { cause });
  }
}

/** Runs a step of `stage`: what it throws carries that stage (an inner step's own stage stays). */
export const at = async <T>(stage: WatchStage, work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    throw error instanceof StageError ? error : new StageError(stage, error);
  }
};
