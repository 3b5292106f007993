// The ABIs Signet writes out (src/infra/chain/contracts.ts) must say what the deployed contracts say:
// each function, by name, with the same inputs, outputs and mutability as its artifact's.
import type { Abi, AbiFunction } from 'viem';
import { formatAbiItem } from 'viem/utils';
import { claimIssuerAbi, claimIssuerArtifact, identityAbi, identityArtifact, idFactoryAbi, idFactoryArtifact } from '../../../../src/infra/chain/contracts.js';

/** What a caller relies on: the signature, the result types and whether it is a read. */
const shape = (item: AbiFunction) => ({
  signature: formatAbiItem(item),
  outputs: item.outputs.map((output) => output.type),
  stateMutability: item.stateMutability,
});

const pairs: [string, Abi, Abi][] = [
  ['Identity', identityAbi, identityArtifact.abi],
  ['IdFactory', idFactoryAbi, idFactoryArtifact.abi],
  ['ClaimIssuer', claimIssuerAbi, claimIssuerArtifact.abi],
];

test.each(pairs)('the %s functions Signet calls match the artifact', (_name, written, artifact) => {
  const functions = (abi: Abi) => abi.filter((item): item is AbiFunction => item.type === 'function');
  expect(functions(written).length).toBeGreaterThan(0);
  for (const item of functions(written)) {
    const deployed = functions(artifact).filter((candidate) => candidate.name === item.name);
    expect({ name: item.name, shapes: deployed.map(shape) }).toEqual({ name: item.name, shapes: [shape(item)] });
  }
});
