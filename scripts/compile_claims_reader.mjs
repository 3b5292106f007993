// Compiles contracts/ClaimsReader.sol and writes its creation code to
// src/infra/chain/claims_reader_bytecode.ts. solc is not a dependency of Signet: install it apart
// (`npm i --no-save solc@0.8.28`, or point SOLC_MODULE at an installed solc package).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const solc = require(process.env.SOLC_MODULE ?? 'solc');
const source = readFileSync(new URL('../contracts/ClaimsReader.sol', import.meta.url), 'utf8');
const input = {
  language: 'Solidity',
  sources: { 'ClaimsReader.sol': { content: source } },
  settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'paris', outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
if (errors.length) throw new Error(errors.map((error) => error.formattedMessage).join('\n'));
const bytecode = output.contracts['ClaimsReader.sol'].ClaimsReader.evm.bytecode.object;
writeFileSync(
  new URL('../src/infra/chain/claims_reader_bytecode.ts', import.meta.url),
  `// ClaimsReader's creation code (contracts/ClaimsReader.sol, solc ${solc.version()}, optimizer 200 runs, paris),
// sent with each deployless read (claims_bundle.ts). Written by scripts/compile_claims_reader.mjs.
import type { Hex } from 'viem';

export const CLAIMS_READER_CREATION_CODE: Hex =
  '0x${bytecode}';
`,
);
console.log(`ClaimsReader: ${bytecode.length / 2} bytes`);
