// The layers of src/, bottom to top: each is a folder of src/, and a folder imports only its own
// layer and those below (docs/architecture.md, "Layers"). Read by .dependency-cruiser.cjs, which
// makes the rules, and by test/unit/layout.test.ts, which holds src/ and the docs to this list.
const LAYERS = ['base', 'config', 'infra', 'http', 'domain', 'features', 'app', 'demo'];

/** The only imports between two features, each with its reason (docs/architecture.md, "Layers"). */
const ALLOWED_FEATURE_PAIRS = [
  { from: 'account', to: 'grants', why: "the account pages list and revoke the owner's grants" },
  { from: 'owner_data', to: 'grants', why: "the export lists the owner's grants and erasure ends them" },
  { from: 'consent_end', to: 'grants', why: 'a removed wallet key revokes the access grants that wallet signed' },
  { from: 'grants', to: 'services', why: 'services call the access-grant API with their API keys' },
];

module.exports = { LAYERS, ALLOWED_FEATURE_PAIRS };
