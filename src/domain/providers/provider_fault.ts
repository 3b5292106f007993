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

/** Anything else (a connection cut, the deadline) means the provider was not there for us. */
export const faultStatusOf = (error: unknown): DataStatus => (error instanceof ProviderFault ? error.status : 'provider_unavailable');
