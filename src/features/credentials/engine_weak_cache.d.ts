// The engine's per-provider internals (what its actions read their challenges from), imported
// by engine_proof_nonces.ts to hand the credential endpoint Signet's nonces. The engine ships
// no types for it.
declare module 'oidc-provider/lib/helpers/weak_cache.js' {
  const internalsOf: (provider: object) => Record<string, unknown> | undefined;
  export default internalsOf;
}
