// A provider step's failure, carrying the status the claim is then released with.
import type { DataStatus } from '../claims/data_status.js';

export class ProviderFault extends Error {
  constructor(
    readonly status: DataStatus,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderFault';
  }
}

/**
 * The status a provider's failure gives the claim. The provider client reports every failure of
 * the provider (down, cut, past the deadline, a refused redirect) as a ProviderFault; anything
 * else is Signet's own (Redis down, a bug) and is thrown on: an outage is the login's 503, never
 * a claim without data.
 */
export function faultStatusOf(error: unknown): DataStatus {
  if (error instanceof ProviderFault) return error.status;
  throw error;
}
