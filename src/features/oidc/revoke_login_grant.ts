// Revokes an OIDC login grant the way the engine does on code reuse: every token issued under
// the grant is deleted, so the website's tokens stop working at once, and so is the Grant
// itself (it carries no grantId, so it is in no grant index: the engine destroys it by id).
import type { Adapter } from 'oidc-provider';

export function createLoginGrantRevoker(Adapter: new (model: string) => Adapter) {
  const grants = new Adapter('Grant');
  return async (grantId: string) => {
    await grants.revokeByGrantId(grantId);
    await grants.destroy(grantId);
  };
}
