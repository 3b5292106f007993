// Revokes an OIDC login grant the way the engine does on code reuse: the Grant and every
// token issued under it are deleted, so the website's tokens stop working at once.
import type { Adapter } from 'oidc-provider';

export function createLoginGrantRevoker(Adapter: new (model: string) => Adapter) {
  const grants = new Adapter('Grant');
  return (grantId: string) => grants.revokeByGrantId(grantId) as Promise<void>;
}
