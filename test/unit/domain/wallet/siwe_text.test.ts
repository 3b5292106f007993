// Signet writes its EIP-4361 challenges itself (no grammar parse on the way out): the text
// must be `siwe`'s byte for byte, `siwe` must read back every field, and what `siwe` refuses
// to write must be refused here too.
import fc from 'fast-check';
import { SiweMessage } from 'siwe';
import { getAddress, type Hex } from 'viem';
import { type SiweFields, siweText } from '../../../../src/domain/wallet/siwe_text.js';

const hex = (length: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${length}}$`));
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/);
const instant = fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }).map((ms) => new Date(ms).toISOString());

const fieldsArbitrary: fc.Arbitrary<SiweFields> = fc.record({
  domain: fc.tuple(word, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined })).map(([host, port]) => `${host}.example${port ? `:${port}` : ''}`),
  address: hex(40).map((body) => getAddress(`0x${body}` as Hex)),
  statement: fc.stringMatching(/^[A-Za-z0-9 .,'&()-]{0,120}$/),
  uri: word.map((host) => `https://${host}.example`),
  chainId: fc.integer({ min: 1, max: 2 ** 31 }),
  nonce: fc.stringMatching(/^[a-zA-Z0-9]{8,20}$/),
  issuedAt: instant,
  expirationTime: instant,
  requestId: word.map((uid) => `interaction:${uid}`),
  resources: fc.array(
    fc.oneof(
      hex(40).map((body) => `eip155:31337:${getAddress(`0x${body}` as Hex)}`),
      fc.tuple(word, word).map(([host, field]) => `https://${host}.example/identities/x/profile#${field}`),
    ),
    { maxLength: 5 },
  ),
});

const bySiwe = (fields: SiweFields) => new SiweMessage({ ...fields, version: '1', resources: [...fields.resources] }).prepareMessage();

test('the text is the one siwe writes, byte for byte, and siwe reads every field back', () => {
  fc.assert(
    fc.property(fieldsArbitrary, (fields) => {
      const text = siweText(fields);
      expect(text).toBe(bySiwe(fields));
      const read = new SiweMessage(text);
      expect({
        domain: read.domain,
        address: read.address,
        statement: read.statement,
        uri: read.uri,
        chainId: read.chainId,
        nonce: read.nonce,
        issuedAt: read.issuedAt,
        expirationTime: read.expirationTime,
        requestId: read.requestId,
        resources: read.resources ?? [],
      }).toEqual(fields);
    }),
    { numRuns: 300 },
  );
});

describe('fields siwe refuses are refused', () => {
  const valid: SiweFields = {
    domain: 'signet.example',
    address: getAddress('0x70997970c51812dc3a010c7d01b50e0d17dc79c8'),
    statement: 'Example asks you to sign in with your identity.',
    uri: 'https://signet.example',
    chainId: 31337,
    nonce: 'abcdefgh1234',
    issuedAt: '2026-01-01T00:00:00.000Z',
    expirationTime: '2026-01-01T00:05:00.000Z',
    requestId: 'interaction:abc',
    resources: ['eip155:31337:0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
  };
  test.each<[string, Partial<SiweFields>]>([
    ['an address not in EIP-55 case', { address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' }],
    ['a statement over two lines', { statement: 'first\nsecond' }],
    ['a short nonce', { nonce: 'abc' }],
    ['a nonce with symbols', { nonce: 'abcdefgh-1234' }],
    ['a resource that is not a URI', { resources: ['not a uri'] }],
    ['a URI with spaces', { uri: 'https://signet.example/a b' }],
  ])('%s', (_name, change) => {
    const fields = { ...valid, ...change };
    expect(() => bySiwe(fields)).toThrow();
    expect(() => siweText(fields)).toThrow();
  });

  test('the valid fields pass both', () => {
    expect(siweText(valid)).toBe(bySiwe(valid));
  });
});
