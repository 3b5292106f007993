// Jest runs the TypeScript sources as ESM through swc; tsc --noEmit does the type check.
// No process outlives its test file or the run: the test environment kills what a file left
// running at its end, the global teardown what the run's crashed workers left
// (test/support/run_processes.mjs).
//
// Two projects. "timing": the files that assert how fast Signet answers (an outage answered
// within a bound, a takeover within lease + poll); those bounds are its promises, each stated once
// in test/support/bounds.ts and imported from there. "suite": everything else, which waits for
// events or injects a clock and asserts no wall-clock bound (a lower bound that only a wrong
// Signet can break is allowed). `npm test` runs the suite on three workers, then the timing files
// one at a time (scripts/test.mjs: a bound must not depend on what another file loads the
// machine with; Jest's worker count is per run, not per project); `jest --selectProjects timing
// --runInBand` runs the timing files alone.
const TIMING_FILES = [
  'test/integration/chain_faults.test.ts',
  'test/integration/chain_ends_consent.test.ts',
  'test/integration/chain_watch.test.ts',
  'test/integration/health.test.ts',
  'test/integration/redis_outage.test.ts',
  'test/integration/contract_wallets.test.ts',
  'test/integration/erasure_resume.test.ts',
  'test/integration/input_limits.test.ts',
  'test/integration/slow_clients.test.ts',
  'test/integration/rate_limit_counters.test.ts',
  'test/integration/ssf.test.ts',
  'test/integration/webhook_isolation.test.ts',
  'test/integration/outbound_guard_timing.test.ts',
  'test/integration/provider_deadline.test.ts',
  'test/property/malformed_input.test.ts',
  'test/unit/infra/chain/rpc_fetch.test.ts',
  'test/integration/rpc_endpoints.test.ts',
  'test/integration/public_chain.test.ts',
  'test/cluster/cluster_wait.test.ts',
  'test/cluster/sentinel_failover.test.ts',
];

const common = {
  testEnvironment: '<rootDir>/test/support/jest_environment.mjs',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } },
    ],
  },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

const escaped = (path) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default {
  globalSetup: '<rootDir>/test/support/jest_global_setup.mjs',
  globalTeardown: '<rootDir>/test/support/jest_global_teardown.mjs',
  testTimeout: 30000,
  projects: [
    {
      ...common,
      displayName: 'suite',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...TIMING_FILES.map((file) => `<rootDir>/${escaped(file)}$`)],
    },
    {
      ...common,
      displayName: 'timing',
      testMatch: TIMING_FILES.map((file) => `<rootDir>/${file}`),
    },
  ],
};
