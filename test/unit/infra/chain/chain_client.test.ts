// A contract that answers an eth_call with EIP-3668's OffchainLookup revert names URLs for the
// caller to fetch. Signet's chain client follows none: the revert stays a revert (a contract's
// refusal), and the URL it names is never asked, here a gateway on this machine that counts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeErrorResult, parseAbi } from 'viem';
import { createChainClient } from '../../../../src/infra/chain/chain_client.js';
import { isContractRefusal } from '../../../../src/infra/chain/chain_errors.js';

const offchainLookup = parseAbi(['error OffchainLookup(address sender, string[] urls, bytes callData, bytes4 callbackFunction, bytes extraData)']);
const probe = parseAbi(['function probe() view returns (uint256)']);
const CONTRACT = '0x00000000000000000000000000000000000000c1';

let rpc: Server;
let gateway: Server;
let gatewayRequests = 0;
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
  gateway = createServer((_request, response) => {
    gatewayRequests++;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"0x"}');
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const revert = encodeErrorResult({
    abi: offchainLookup,
    errorName: 'OffchainLookup',
    args: [CONTRACT, [`${urlOf(gateway)}/{sender}/{data}.json`], '0x1234', '0xabcdef01', '0x'],
  });
  rpc = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { id } = JSON.parse(body) as { id: number };
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: 3, message: 'execution reverted', data: revert } }));
    });
  });
  await new Promise<void>((resolve) => rpc.listen(0, '127.0.0.1', resolve));
});

afterAll(() => {
  for (const server of [rpc, gateway]) {
    server.closeAllConnections();
    server.close();
  }
});

test('an OffchainLookup revert is a refusal, and the gateway it names is never asked', async () => {
  const client = createChainClient(urlOf(rpc), 31337);
  const error = await client.readContract({ address: CONTRACT, abi: probe, functionName: 'probe' }).catch((thrown: unknown) => thrown);
  expect(isContractRefusal(error)).toBe(true);
  expect(gatewayRequests).toBe(0);
});
