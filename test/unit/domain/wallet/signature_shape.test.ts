// A signature's shape, checked before any signature is verified: whole bytes of 0x-prefixed hex,
// else signature_malformed with the one message both verifiers give.
import { SignetError } from '../../../../src/base/errors.js';
import { assertSignatureShape } from '../../../../src/domain/wallet/signature_shape.js';

test.each([`0x${'1b'.repeat(65)}`, '0xAbCd'])('%s passes', (signature) => {
  expect(() => assertSignatureShape(signature)).not.toThrow();
});

test.each(['', '0x', '0x123', 'abcd', '0xzz', ` 0x${'1b'.repeat(65)}`])('%j is refused as signature_malformed', (signature) => {
  let refusal: unknown;
  try {
    assertSignatureShape(signature);
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(SignetError);
  expect(refusal).toMatchObject({ reason: 'signature_malformed', message: '"signature" must be 0x-prefixed hex' });
});
