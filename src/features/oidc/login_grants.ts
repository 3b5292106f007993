// The engine's login grants as Signet ends and checks them. Revoking works the way the engine
// does on code reuse: every token issued under the grant is deleted, so the website's tokens
// stop working at once, and so is the Grant itself (it carries no grantId, so it is in no grant
// index: the engine destroys it by id). A grant is live while the engine still holds it.
import type { Adapter } from 'oidc-provider';

export function createLoginGrants(Adapter: new (model: string) => Adapter) {
  const grants = new Adapter('Grant');
  return {
    revoke: async (grantId: string) => {
      await grants.revokeByGrantId(grantId);
      await grants.destroy(grantId);
    },
    isActive: async (grantId: string) => (await grants.find(grantId)) !== undefined,
  };
}
