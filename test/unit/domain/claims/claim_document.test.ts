// The claim document's canonical JSON and the bounds on claim data.
import { assertClaimDataBounds, canonicalJson } from '../../../../src/domain/claims/claim_document.js';

const nested = (depth: number) => {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value as Record<string, unknown>;
};

test('canonicalJson sorts keys at every level and drops undefined', () => {
  expect(canonicalJson({ b: [1, { d: null, c: 'x' }], a: true, u: undefined })).toBe('{"a":true,"b":[1,{"c":"x","d":null}]}');
});

test('canonicalJson refuses, instead of overflowing the stack, a value nested without bound', () => {
  expect(() => canonicalJson(nested(100_000))).toThrow(new RangeError('canonicalJson: nesting deeper than 64 levels'));
  expect(canonicalJson(nested(63))).toMatch(/^(\{"a":){63}"deep"\}{63}$/);
});

test('claim data: 8 levels and 16 KiB pass; one more level or byte is refused with its reason', () => {
  expect(() => assertClaimDataBounds(nested(8))).not.toThrow();
  expect(() => assertClaimDataBounds(nested(9))).toThrow(expect.objectContaining({ status: 400, reason: 'claim_data_too_deep' }));
  const frame = canonicalJson({ v: '' }).length;
  expect(() => assertClaimDataBounds({ v: 'x'.repeat(16 * 1024 - frame) })).not.toThrow();
  expect(() => assertClaimDataBounds({ v: 'x'.repeat(16 * 1024 - frame + 1) })).toThrow(
    expect.objectContaining({ status: 400, reason: 'claim_data_too_large' }),
  );
});
