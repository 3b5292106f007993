// What the RPC providers and node clients really answer when eth_getLogs asks too much (too
// wide a block range, too many logs) and when they rate limit: code, message and HTTP status as
// found in their documentation or in a public issue that quotes the answer, one row each, with
// where it was found. The provider proxy (test/support/provider_proxy.ts) answers its caps with
// these texts, and the unit tests check that src/infra/chain/provider_limits.ts recognises every row.
//
// Only what was found is written down. Where the source shows the body but not the HTTP status,
// `httpStatus` is left out (a JSON-RPC error then normally comes in a 200); where it shows the
// message but not the code, `code` is left out. Looked for and not found: Nethermind's log limits,
// Polygon PoS (bor) public RPC, dRPC, BlastAPI, Moralis.

export type ProviderName =
  | 'alchemy'
  | 'infura'
  | 'quicknode'
  | 'ankr'
  | 'chainstack'
  | 'cloudflare'
  | 'llamarpc'
  | 'tenderly'
  | 'geth'
  | 'erigon'
  | 'reth'
  | 'base'
  | 'polygon-zkevm'
  | 'bnb'
  | 'zksync-era';

export type ProviderErrorKind = 'range' | 'results' | 'rate_limit';

/**
 * The numbers a refusal is about: the requested blocks, the cap, and for the providers that
 * suggest a range, its last block (the suggestion starts at `from`).
 */
export type RefusalContext = { from: bigint; to: bigint; max: number; suggestTo?: bigint };

export type ProviderErrorRow = {
  provider: ProviderName;
  kind: ProviderErrorKind;
  /** Left out where the source does not show it. */
  httpStatus?: number;
  /** Left out where the source does not show it. */
  code?: number;
  /** The message exactly as found. */
  message: string;
  /** The error's `data` exactly as found. */
  data?: unknown;
  /** Members of the error object besides code, message and data (MetaMask's Infura answers). */
  extra?: Record<string, unknown>;
  /** The range the message suggests, as written in it. */
  suggests?: { from: string; to: string };
  /**
   * The same answer with its numbers as placeholders, for answering other requests: {max},
   * {maxComma} (10,000), {span} (to - from), {suggestFrom}/{suggestTo} (decimal),
   * {suggestFromHex}/{suggestToHex} (0xabc), {SUGGESTFROMHEX}/{SUGGESTTOHEX} (0xABC). A string
   * that is exactly "{max}" becomes the number.
   */
  template?: { message?: string; data?: unknown };
  source: string;
};

export const PROVIDER_ERRORS: readonly ProviderErrorRow[] = [
  // Alchemy
  {
    provider: 'alchemy',
    kind: 'range',
    httpStatus: 400,
    code: -32600,
    message: 'You can make eth_getLogs requests with up to a 500 block range. Based on your parameters, this block range should work: [0x1a30dfd, 0x1a30ff0]',
    suggests: { from: '0x1a30dfd', to: '0x1a30ff0' },
    template: {
      message:
        'You can make eth_getLogs requests with up to a {max} block range. Based on your parameters, this block range should work: [{suggestFromHex}, {suggestToHex}]',
    },
    source: 'https://github.com/boundless-xyz/boundless/issues/838',
  },
  {
    provider: 'alchemy',
    kind: 'results',
    // Quoted by ethers as a "processing response error", which it reports for an error in a 200
    // (https://github.com/eth-infinitism/bundler/issues/90).
    httpStatus: 200,
    code: -32602,
    message:
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [0x0, 0x87fe9]',
    suggests: { from: '0x0', to: '0x87fe9' },
    template: {
      message:
        'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [{suggestFromHex}, {suggestToHex}]',
    },
    source: 'https://github.com/ethereum/go-ethereum/issues/25343',
  },
  {
    provider: 'alchemy',
    kind: 'results',
    httpStatus: 400,
    code: -32600,
    message: 'Response size is larger than 150MB limit',
    source: 'https://github.com/ponder-sh/ponder/issues/407',
  },
  {
    provider: 'alchemy',
    kind: 'rate_limit',
    httpStatus: 429,
    code: 429,
    message:
      'Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out https://docs.alchemy.com/reference/throughput',
    source: 'https://github.com/conduitxyz/node/issues/36',
  },

  // Infura
  {
    provider: 'infura',
    kind: 'range',
    code: -32602,
    message: 'range 1000000 exceeds limit of 10000',
    template: { message: 'range {span} exceeds limit of {max}' },
    source: 'https://github.com/INFURA/infura/issues/237',
  },
  {
    provider: 'infura',
    kind: 'results',
    code: -32005,
    message: 'query returned more than 10000 results. Try with this block range [0xBDE5F8, 0x102DBCC].',
    data: { from: '0xBDE5F8', limit: 10000, to: '0x102DBCC' },
    suggests: { from: '0xBDE5F8', to: '0x102DBCC' },
    template: {
      message: 'query returned more than {max} results. Try with this block range [{SUGGESTFROMHEX}, {SUGGESTTOHEX}].',
      data: { from: '{SUGGESTFROMHEX}', limit: '{max}', to: '{SUGGESTTOHEX}' },
    },
    source: 'https://github.com/ethers-io/ethers.js/issues/4703',
  },
  {
    provider: 'infura',
    kind: 'rate_limit',
    httpStatus: 429,
    code: -32005,
    message: 'project ID request rate exceeded',
    data: { see: 'https://infura.io/docs/ethereum/jsonrpc/ratelimits', current_rps: 13.333, allowed_rps: 10.0, backoff_seconds: 30.0 },
    source: 'https://docs.infura.io/api/networks/ethereum/how-to/avoid-rate-limiting',
  },
  {
    provider: 'infura',
    kind: 'rate_limit',
    httpStatus: 429,
    code: -32005,
    message: 'daily request count exceeded, request rate limited',
    source: 'https://docs.infura.io/api/networks/ethereum/how-to/avoid-rate-limiting',
  },
  {
    provider: 'infura',
    kind: 'rate_limit',
    httpStatus: 429,
    code: 429,
    message: 'Too Many Requests',
    extra: {
      event: -33200,
      details: 'You have surpassed your allowed throughput limit. Reduce the amount of requests per second or upgrade for more capacity.',
    },
    source: 'https://docs.metamask.io/services/how-to/avoid-rate-limiting',
  },

  // QuickNode
  {
    provider: 'quicknode',
    kind: 'range',
    httpStatus: 413,
    code: -32614,
    message: 'eth_getLogs is limited to a 10,000 range',
    template: { message: 'eth_getLogs is limited to a {maxComma} range' },
    source: 'https://github.com/eternalsafe/wallet/issues/57',
  },
  {
    provider: 'quicknode',
    kind: 'rate_limit',
    httpStatus: 429,
    code: 429,
    message: 'The requests per second (RPS) of your requests are higher than your plan allows.',
    source: 'https://quicknode.com/docs/stacks/error-references',
  },
  {
    provider: 'quicknode',
    kind: 'rate_limit',
    code: -32007,
    message: '100/second request limit reached - reduce calls per second or upgrade your account at quicknode.com',
    source: 'https://github.com/foundry-rs/foundry/issues/4894',
  },
  {
    provider: 'quicknode',
    kind: 'rate_limit',
    code: -32012,
    message: 'credits limited to 6000/sec',
    source: 'https://github.com/latticexyz/mud/issues/1522',
  },

  // Ankr
  {
    provider: 'ankr',
    kind: 'range',
    // viem raised it as InvalidInputRpcError (-32000), an RPC error class: the answer came in a 200.
    httpStatus: 200,
    code: -32000,
    message: 'maximum [from, to] blocks distance: 10000',
    template: { message: 'maximum [from, to] blocks distance: {max}' },
    source: 'https://github.com/ponder-sh/ponder/issues/1940',
  },
  {
    provider: 'ankr',
    kind: 'range',
    code: -32600,
    message: 'block range is too wide',
    source: 'https://github.com/ponder-sh/ponder/blob/962d8aff2c044697fef71b1a651aad1340c12d6a/packages/utils/src/parseGetLogsError/parseGetLogsError.ts',
  },

  // Chainstack
  {
    provider: 'chainstack',
    kind: 'range',
    code: -32602,
    message: 'Block range limit exceeded. See more details at https://docs.chainstack.com/docs/limits#evm-range-limits',
    source: 'https://github.com/matter-labs/zksync-era/pull/2974',
  },

  // Cloudflare's Ethereum gateway
  {
    provider: 'cloudflare',
    kind: 'range',
    code: -32047,
    message: "Invalid eth_getLogs request. 'fromBlock'-'toBlock' range too large. Max range: 800",
    template: { message: "Invalid eth_getLogs request. 'fromBlock'-'toBlock' range too large. Max range: {max}" },
    source: 'https://github.com/ponder-sh/ponder/blob/962d8aff2c044697fef71b1a651aad1340c12d6a/packages/utils/src/parseGetLogsError/parseGetLogsError.ts',
  },

  // LlamaRPC
  {
    provider: 'llamarpc',
    kind: 'results',
    // The test asserts viem's InvalidParamsRpcError (-32602) and only this part of the message.
    code: -32602,
    message: 'query exceeds max results 20000',
    template: { message: 'query exceeds max results {max}' },
    source: 'https://github.com/ponder-sh/ponder/blob/1f4bd97a4d9606b922020ae8e2d97cbed78a872f/packages/utils/src/_test/llamarpc.test.ts',
  },

  // Tenderly: the text is in `data`, the message only says "invalid params".
  {
    provider: 'tenderly',
    kind: 'range',
    // Quoted by ethers as a "processing response error": an error in a 200.
    httpStatus: 200,
    code: -32602,
    message: 'invalid params',
    data: { error_id: '4ed94073-0317-4648-a167-107fba5f44b3', payload: 'range 9009594 is bigger than range limit 2000' },
    template: { data: { error_id: '4ed94073-0317-4648-a167-107fba5f44b3', payload: 'range {span} is bigger than range limit {max}' } },
    source: 'https://github.com/bobanetwork/boba_legacy/issues/827',
  },
  {
    provider: 'tenderly',
    kind: 'results',
    code: -32602,
    message: 'invalid params',
    data: 'Query returned more than 20000 results. Try with this block range [0x869609, 0x869773].',
    suggests: { from: '0x869609', to: '0x869773' },
    template: { data: 'Query returned more than {max} results. Try with this block range [{suggestFromHex}, {suggestToHex}].' },
    source: 'https://github.com/agglayer/aggkit/issues/812',
  },
  {
    provider: 'tenderly',
    kind: 'rate_limit',
    httpStatus: 429,
    code: -32005,
    message: 'rate limit exceeded',
    source: 'https://github.com/fluencelabs/dev-rewards/issues/20',
  },

  // Node clients, with their log limits switched on.
  {
    provider: 'geth',
    kind: 'range',
    // --rpc.rangelimit; geth refuses when toBlock - fromBlock exceeds it.
    code: -32602,
    message: 'exceed maximum block range 5',
    template: { message: 'exceed maximum block range {max}' },
    source: 'https://github.com/ethereum/go-ethereum/pull/33163',
  },
  {
    provider: 'erigon',
    kind: 'range',
    code: -32602,
    message: 'query block range exceeds server limit, narrow your filter: 5',
    template: { message: 'query block range exceeds server limit, narrow your filter: {max}' },
    source: 'https://github.com/erigontech/erigon/pull/20424',
  },
  {
    provider: 'erigon',
    kind: 'results',
    message: 'query returns too many logs, narrow your filter: 20000',
    template: { message: 'query returns too many logs, narrow your filter: {max}' },
    source: 'https://github.com/erigontech/erigon/pull/19721',
  },
  {
    provider: 'reth',
    kind: 'range',
    code: -32602,
    message: 'query exceeds max block range 5000',
    template: { message: 'query exceeds max block range {max}' },
    source: 'https://github.com/paradigmxyz/reth/pull/8558',
  },

  // Base: its node (reth underneath) suggests a range in decimal; its public endpoint rate limits.
  {
    provider: 'base',
    kind: 'results',
    code: -32602,
    message: 'query exceeds max results 20000, retry with the range 25766988-25775072',
    suggests: { from: '25766988', to: '25775072' },
    template: { message: 'query exceeds max results {max}, retry with the range {suggestFrom}-{suggestTo}' },
    source: 'https://github.com/base/base/issues/2421',
  },
  {
    provider: 'base',
    kind: 'rate_limit',
    httpStatus: 429,
    code: -32016,
    message: 'over rate limit',
    source: 'https://github.com/base/node/issues/368',
  },

  // Polygon zkEVM's public RPC
  {
    provider: 'polygon-zkevm',
    kind: 'range',
    code: -32602,
    message: 'logs are limited to a 10000 block range',
    template: { message: 'logs are limited to a {max} block range' },
    source: 'https://github.com/0xPolygon/zkevm-node/issues/3136',
  },

  // BNB Smart Chain public dataseed
  {
    provider: 'bnb',
    kind: 'range',
    code: -32000,
    message: 'exceed maximum block range: 5000',
    template: { message: 'exceed maximum block range: {max}' },
    source: 'https://github.com/AlphaWallet/alpha-wallet-android/issues/2736',
  },
  {
    provider: 'bnb',
    kind: 'rate_limit',
    // Quoted by ethers as a "processing response error": an error in a 200.
    httpStatus: 200,
    code: -32005,
    message: 'limit exceeded',
    source: 'https://github.com/DefiLlama/dimension-adapters/pull/864',
  },

  // zkSync Era's public RPC
  {
    provider: 'zksync-era',
    kind: 'results',
    code: -32602,
    message: 'Query returned more than 10000 results. Try with this block range [0x118dc91, 0x1198cc3].',
    suggests: { from: '0x118dc91', to: '0x1198cc3' },
    template: { message: 'Query returned more than {max} results. Try with this block range [{suggestFromHex}, {suggestToHex}].' },
    source: 'https://github.com/ponder-sh/ponder/issues/724',
  },
];

/** The JSON-RPC error member of an answer, and the HTTP status it comes with. */
export type ProviderAnswer = { httpStatus: number; body: { code: number; message: string; data?: unknown; [extra: string]: unknown } };

/** The first row for a provider and kind: the one the proxy answers with. */
export function providerErrorRow(provider: ProviderName, kind: ProviderErrorKind): ProviderErrorRow | undefined {
  return PROVIDER_ERRORS.find((row) => row.provider === provider && row.kind === kind);
}

/** `provider`'s answer of this kind, with the numbers of `context` where its message carries them. */
export function providerError(provider: ProviderName, kind: ProviderErrorKind, context: RefusalContext): ProviderAnswer {
  const row = providerErrorRow(provider, kind);
  if (!row) throw new Error(`no ${kind} error found for ${provider}`);
  return renderProviderError(row, context);
}

/** One row's answer to a request described by `context`. */
export function renderProviderError(row: ProviderErrorRow, context: RefusalContext): ProviderAnswer {
  const message = row.template?.message === undefined ? row.message : (fill(row.template.message, context) as string);
  const data = row.template?.data === undefined ? row.data : fill(row.template.data, context);
  return {
    // Where the source shows no status, the error came in a JSON-RPC answer, which is a 200.
    httpStatus: row.httpStatus ?? 200,
    body: {
      // Where the source shows no code: -32000, the generic server error.
      code: row.code ?? -32000,
      message,
      ...(data === undefined ? {} : { data }),
      ...row.extra,
    },
  };
}

function fill(template: unknown, context: RefusalContext): unknown {
  if (typeof template === 'string') {
    if (template === '{max}') return context.max;
    const suggestFrom = context.from;
    const suggestTo = context.suggestTo ?? context.from + BigInt(context.max) - 1n;
    const values: Record<string, string> = {
      max: String(context.max),
      maxComma: context.max.toLocaleString('en-US'),
      span: String(context.to - context.from),
      suggestFrom: String(suggestFrom),
      suggestTo: String(suggestTo),
      suggestFromHex: `0x${suggestFrom.toString(16)}`,
      suggestToHex: `0x${suggestTo.toString(16)}`,
      SUGGESTFROMHEX: `0x${suggestFrom.toString(16).toUpperCase()}`,
      SUGGESTTOHEX: `0x${suggestTo.toString(16).toUpperCase()}`,
    };
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  }
  if (Array.isArray(template)) return template.map((item) => fill(item, context));
  if (template && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, fill(value, context)]));
  return template;
}
