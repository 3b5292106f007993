// Multicall3 on a local anvil, where a public chain has it deployed already.
import { MULTICALL3_ADDRESS } from '../chain/multicall3.js';
import { MULTICALL3_CREATION_CODE } from './multicall3_bytecode.js';

/** Puts Multicall3's code at its canonical address on a local anvil (anvil_setCode). */
export async function installMulticall3(rpcUrl: string): Promise<void> {
  const rpc = async (method: string, params: unknown[]) => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const answer = (await response.json()) as { result?: string; error?: { message: string } };
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  };
  // Running the creation code in an eth_call returns the runtime code it would deploy.
  const runtime = await rpc('eth_call', [{ data: MULTICALL3_CREATION_CODE }, 'latest']);
  await rpc('anvil_setCode', [MULTICALL3_ADDRESS, runtime]);
}
