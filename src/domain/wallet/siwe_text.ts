// Writes an EIP-4361 message from fields Signet chose, line for line as `siwe` writes it,
// without the full grammar parse `siwe`'s constructor runs on its own output: Signet's
// fields are known to be well formed (EIP-55 address, one-line statement, plain URIs), and
// a test holds this text byte for byte to `siwe`'s on valid and invalid inputs.
import { type Address, getAddress } from 'viem';
import { isChainId } from '../../base/chain_id.js';

export type SiweFields = {
  domain: string;
  address: Address;
  statement: string;
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
  expirationTime: string;
  requestId: string;
  resources: readonly string[];
};

const ONE_LINE = /^[^\n\r]*$/;
const URI_LIKE = /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/;
const NONCE = /^[a-zA-Z0-9]{8,}$/;

/** Refuses what `siwe` would refuse, so a bad field fails here instead of yielding a text. */
function assertWellFormed(fields: SiweFields) {
  if (getAddress(fields.address) !== fields.address) throw new Error('address must be EIP-55 checksummed');
  if (!ONE_LINE.test(fields.statement)) throw new Error('statement must be one line');
  if (!NONCE.test(fields.nonce)) throw new Error('nonce must be 8 or more letters and digits');
  if (!isChainId(fields.chainId)) throw new Error('chainId must be a positive integer');
  for (const uri of [fields.uri, ...fields.resources]) if (!URI_LIKE.test(uri)) throw new Error(`not a URI: ${uri}`);
  if (!ONE_LINE.test(fields.requestId) || !/^\S*$/.test(fields.domain)) throw new Error('domain and request id must be one word');
}

export function siweText(fields: SiweFields): string {
  assertWellFormed(fields);
  return [
    `${fields.domain} wants you to sign in with your Ethereum account:`,
    fields.address,
    '',
    fields.statement,
    '',
    `URI: ${fields.uri}`,
    'Version: 1',
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
    `Expiration Time: ${fields.expirationTime}`,
    `Request ID: ${fields.requestId}`,
    ['Resources:', ...fields.resources.map((resource) => `- ${resource}`)].join('\n'),
  ].join('\n');
}
