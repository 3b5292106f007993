// Which folder of src/ may import which (docs/architecture.md, "Layers"). `npm run deps` checks
// it, and `npm run lint` (which CI runs) with it: a cycle, or an import that reaches up a layer,
// fails the build.
//
// The layers, bottom to top; a folder imports its own layer's and lower layers' folders only:
//   base      src/*.ts below everything: errors, error codes, reasons, config, paths, retention;
//             and src/clients/client_metadata.ts, the client schema the settings validate CLIENTS with
//   infra     store/, chain/, observability/, keys/, rate_limits/, outbound/
//   http      http/: the route table machinery and the Koa stack
//   shared    the concepts several features build on (SHARED below)
//   features  one folder per feature (FEATURES below); one feature imports another only where
//             ALLOWED_FEATURE_PAIRS says so, never both ways
//   app       app.ts, app_parts.ts, server.ts, main.ts, cli.ts, process/: assembly and entries
//   demo      demo/: the embedded demo, which nothing else imports

/** src/*.ts at the bottom: what every layer may use. */
const BASE = ['errors', 'error_codes', 'reasons', 'reasons_readme', 'config', 'config_members', 'config_settings', 'settings_readme', 'project_root', 'retention'];
/** Base modules kept with their folder's concept: the settings validate CLIENTS with the client metadata schema. */
const BASE_IN_FOLDERS = ['^src/clients/client_metadata\\.ts$'];
const INFRA = ['store', 'chain', 'observability', 'keys', 'rate_limits', 'outbound'];
const SHARED = ['clients', 'profile', 'identity', 'wallet', 'history', 'fields', 'consent', 'owner_sessions', 'backchannel', 'claims', 'notify', 'watch', 'clients', 'dpop'];
const FEATURES = ['oidc', 'interaction', 'grants', 'account', 'ciba', 'services', 'signals', 'consent_end', 'owner_data', 'landing', 'health'];
const APP_FILES = ['app', 'app_parts', 'server', 'main', 'cli'];

/** The only imports between two features, each with its reason (docs/architecture.md, "Layers"). */
const ALLOWED_FEATURE_PAIRS = [
  { from: 'account', to: 'grants', why: "the account pages list and revoke the owner's grants" },
  { from: 'owner_data', to: 'grants', why: "the export lists the owner's grants and erasure ends them" },
  { from: 'consent_end', to: 'grants', why: 'a removed wallet key revokes the access grants that wallet signed' },
  { from: 'grants', to: 'services', why: 'services call the access-grant API with their API keys' },
];

// Never both ways (no-folder-cycles would catch it too, later and less plainly).
for (const pair of ALLOWED_FEATURE_PAIRS) {
  if (ALLOWED_FEATURE_PAIRS.some((other) => other.from === pair.to && other.to === pair.from)) {
    throw new Error(`.dependency-cruiser.cjs: ${pair.from}/ and ${pair.to}/ may not import each other both ways`);
  }
}

const folders = (names) => `^src/(${names.join('|')})/`;
const rootFiles = (names) => `^src/(${names.join('|')})\\.ts$`;

const BASE_PATH = [rootFiles(BASE), ...BASE_IN_FOLDERS];
const INFRA_PATH = folders(INFRA);
const HTTP_PATH = folders(['http']);
const SHARED_PATH = folders(SHARED);
const FEATURES_PATH = folders(FEATURES);
const APP_PATH = [rootFiles(APP_FILES), folders(['process'])];
const DEMO_PATH = folders(['demo']);

/** A rule that forbids `from` to import any of `to`. */
const upward = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to, pathNot: BASE_IN_FOLDERS } });

const featureToFeature = FEATURES.map((feature) => {
  const allowed = ALLOWED_FEATURE_PAIRS.filter((pair) => pair.from === feature).map((pair) => pair.to);
  const others = FEATURES.filter((other) => other !== feature && !allowed.includes(other));
  return {
    name: 'feature-to-feature',
    comment: `${feature}/ imports no other feature${allowed.length ? ` but ${allowed.join(', ')} (ALLOWED_FEATURE_PAIRS)` : ''}: what two features share gets its own folder in the shared layer`,
    severity: 'error',
    from: { path: folders([feature]) },
    to: { path: folders(others) },
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
      comment: 'No folder reaches back into a folder that imports it: what both need gets its own home lower down.',
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
      comment: 'Every module of src/ belongs to a layer: a new folder is added to .dependency-cruiser.cjs (and docs/architecture.md, "Layers").',
      severity: 'error',
      from: { path: '^src/', pathNot: [...BASE_PATH, INFRA_PATH, HTTP_PATH, SHARED_PATH, FEATURES_PATH, ...APP_PATH, DEMO_PATH] },
      to: {},
    },
    upward('base-imports-nothing-above', 'The base files import only each other.', BASE_PATH, [INFRA_PATH, HTTP_PATH, SHARED_PATH, FEATURES_PATH, ...APP_PATH, DEMO_PATH]),
    upward('infra-below-http', 'store/, chain/, observability/, keys/, rate_limits/ and outbound/ serve everything above: they import only the base and each other.', INFRA_PATH, [HTTP_PATH, SHARED_PATH, FEATURES_PATH, ...APP_PATH, DEMO_PATH]),
    upward('http-below-domain', 'The route table machinery knows no feature and no shared concept.', HTTP_PATH, [SHARED_PATH, FEATURES_PATH, ...APP_PATH, DEMO_PATH]),
    upward('shared-below-features', 'A shared home never reaches up into a feature.', SHARED_PATH, [FEATURES_PATH, ...APP_PATH, DEMO_PATH]),
    upward('features-below-app', 'Features are assembled by app.ts; they never import it.', FEATURES_PATH, [...APP_PATH, DEMO_PATH]),
    upward('app-below-demo', 'The production entry never imports the demo.', APP_PATH, [DEMO_PATH]),
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
