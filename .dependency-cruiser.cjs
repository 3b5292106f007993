// Which folder of src/ may import which (docs/architecture.md, "Layers"). `npm run deps` checks
// it, and `npm run lint` (which CI runs) with it: a cycle between folders at any depth, or an
// import that reaches up a layer, fails the build.
//
// Each folder of src/ is a layer, in the order scripts/layers.cjs gives (bottom to top); the
// folders inside each layer are read from the disk, and test/unit/layout.test.ts holds src/, that
// list and the tables of docs/architecture.md to each other.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

const { LAYERS, ALLOWED_FEATURE_PAIRS } = require('./scripts/layers.cjs');

/** Tooling for a local chain (anvil, its accounts, deploying ONCHAINID): the demo's and the CLI's, never the service's. */
const LOCAL_CHAIN = '^src/infra/local_chain/';
const LOCAL_CHAIN_USERS = ['^src/infra/local_chain/', '^src/demo/', '^src/app/cli\\.ts$'];

// Never both ways (no-folder-cycles would catch it too, later and less plainly).
for (const pair of ALLOWED_FEATURE_PAIRS) {
  if (ALLOWED_FEATURE_PAIRS.some((other) => other.from === pair.to && other.to === pair.from)) {
    throw new Error(`.dependency-cruiser.cjs: ${pair.from}/ and ${pair.to}/ may not import each other both ways`);
  }
}

const FEATURES = readdirSync(join(__dirname, 'src', 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const layerPath = (layer) => `^src/${layer}/`;

/** A layer imports its own and the layers below it, never one above. */
const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `${layer}-imports-nothing-above`,
  comment: `src/${layer}/ imports only ${LAYERS.slice(0, index + 1).join(', ')}: the layers above it build on it, never the other way`,
  severity: 'error',
  from: { path: layerPath(layer) },
  to: { path: LAYERS.slice(index + 1).map(layerPath) },
}));

const featureToFeature = FEATURES.map((feature) => {
  const allowed = ALLOWED_FEATURE_PAIRS.filter((pair) => pair.from === feature).map((pair) => pair.to);
  const others = FEATURES.filter((other) => other !== feature && !allowed.includes(other));
  return {
    name: 'feature-to-feature',
    comment: `features/${feature}/ imports no other feature${allowed.length ? ` but ${allowed.join(', ')} (ALLOWED_FEATURE_PAIRS)` : ''}: what two features share gets its own folder in src/domain/`,
    severity: 'error',
    from: { path: `^src/features/${feature}/` },
    to: { path: others.map((other) => `^src/features/${other}/`) },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No module imports itself back through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No folder, at any depth, reaches back into a folder that imports it: what both need gets its own home lower down.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every relative import names a file that exists.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'unlayered',
      comment: `Every module of src/ is in a layer's folder (${LAYERS.join(', ')}).`,
      severity: 'error',
      from: { path: '^src/', pathNot: LAYERS.map(layerPath) },
      to: {},
    },
    {
      name: 'local-chain-is-tooling',
      comment: 'The service never imports the local-chain tooling (anvil, deployments): only the demo and the CLI do.',
      severity: 'error',
      from: { path: '^src/', pathNot: LOCAL_CHAIN_USERS },
      to: { path: LOCAL_CHAIN },
    },
    ...upward,
    ...featureToFeature,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    // TypeScript 7 has no compiler API dependency-cruiser can use yet: swc (here for jest already)
    // parses. swc keeps type-only imports, so they count too: a type is a dependency on the folder
    // that owns it. (`tsPreCompilationDeps` would ask for the TypeScript compiler API; swc needs it not.)
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'], exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
