// CLIENTS at start (decision 23): each entry, checked by the engine, is written as the engine's
// client record, over whatever the record held (a change of CLIENTS applies on restart); a
// client an earlier start wrote and CLIENTS no longer lists is taken out of the registry (its
// tokens stop working, as when it left the static configuration; its grants wait for it to come
// back or expire). Clients added at run time are never touched. Every step writes the same
// values whichever process runs it, so processes starting at once may all run it.
import { ConfigError } from '../../base/errors.js';
import type { ClientMetadata } from '../../config/client_metadata.js';
import type { ClientRecord, ClientRecords } from '../../infra/store/client_records.js';
import { keys } from '../../infra/store/keys.js';
import type { Store } from '../../infra/store/store.js';
import type { ValidateWithEngine } from './engine_validation.js';

/** A client of Signet's form as the engine's record: its response types follow its grants. */
export function engineRecordOf(client: ClientMetadata): ClientRecord {
  return { ...client, response_types: client.grant_types.includes('authorization_code') ? ['code'] : [] };
}

export type ClientSeedingDeps = {
  store: Store;
  records: ClientRecords;
  configured: readonly ClientMetadata[];
  validate: ValidateWithEngine;
};

export async function seedConfiguredClients(deps: ClientSeedingDeps): Promise<void> {
  const { store, records, configured } = deps;
  const wanted = configured.map(engineRecordOf);
  // Every entry is checked before any is written: a start that fails leaves Redis as it was.
  for (const [i, record] of wanted.entries()) {
    const verdict = await deps.validate(record);
    if (verdict) throw new ConfigError(`clients.${i}`, `is refused by the OpenID Connect engine: ${verdict.description}`);
  }
  const ids = new Set(configured.map((client) => client.client_id));
  for (const gone of (await store.indexMembers(keys.configuredClients())).filter((id) => !ids.has(id))) {
    await records.delete(gone);
    await store.removeFromIndex(keys.configuredClients(), gone);
  }
  for (const record of wanted) {
    await store.addToIndex(keys.configuredClients(), record.client_id, 0);
    await records.save(record);
  }
}
