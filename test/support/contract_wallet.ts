// A minimal EIP-1271 contract wallet, hand-assembled (no compiler here): isValidSignature(hash,
// signature) answers the magic value 0x1626ba7e when the 65-byte signature recovers (ecrecover)
// to the owner key written into its code, and zero otherwise. Deployed at once, or left
// counterfactual behind an EIP-6492 wrapper that deploys it through the CREATE2 deployer
// anvil ships with.
import { type Address, concat, getContractAddress, type Hex, pad, serializeErc6492Signature, toHex } from 'viem';

/** The deterministic-deployment proxy present on anvil: calldata = salt (32 bytes) ++ init code. */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C';

function runtimeFor(owner: Address): Hex {
  const head = [
    '600435600052', // mem[0x00] = hash
    '60a43560001a602052', // mem[0x20] = v (first byte of the signature's last word)
    '606435604052', // mem[0x40] = r
    '608435606052', // mem[0x60] = s
    '602060806080600060015afa50', // staticcall(gas, ecrecover, 0, 0x80, 0x80, 0x20)
    '608051', // recovered signer
    `73${owner.slice(2).toLowerCase()}14`, // == owner
  ].join('');
  const refuse = '60006000526020 6000f3'.replace(/ /g, ''); // return bytes4(0)
  const acceptAt = head.length / 2 + 3 + refuse.length / 2; // after PUSH1 <dest> JUMPI and the refusal
  const accept = '5b631626ba7e60e01b60005260206000f3'; // return 0x1626ba7e
  return `0x${head}60${acceptAt.toString(16).padStart(2, '0')}57${refuse}${accept}`;
}

/** Init code that deploys the wallet's runtime. */
export function contractWalletInitCode(owner: Address): Hex {
  const runtime = runtimeFor(owner).slice(2);
  const length = (runtime.length / 2).toString(16).padStart(2, '0');
  return `0x60${length}600c60003960${length}6000f3${runtime}`;
}

/** Where the CREATE2 deployer would put the wallet of `owner` with `salt`. */
export function counterfactualWallet(owner: Address, salt: Hex): { address: Address; deployData: Hex } {
  const initCode = contractWalletInitCode(owner);
  const salt32 = pad(salt, { size: 32 });
  return {
    address: getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt: salt32, bytecode: initCode }),
    deployData: concat([salt32, initCode]),
  };
}

/** An EIP-6492 signature: the owner's signature, with how to deploy the wallet first. */
export function wrap6492(deployData: Hex, ownerSignature: Hex): Hex {
  return serializeErc6492Signature({ address: CREATE2_DEPLOYER, data: deployData, signature: ownerSignature });
}

export const saltOf = (n: number): Hex => toHex(n, { size: 32 });
