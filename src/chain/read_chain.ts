// A chain read whose failure means "the chain is unreachable" (503), named for the logs.
import { unavailable } from '../errors.js';

export async function readChain<T>(what: string, call: () => Promise<unknown>): Promise<T> {
  try {
    return (await call()) as T;
  } catch (error) {
    throw unavailable(`the chain could not be read (${what})`, error);
  }
}
