import { describe, expect, it } from '@jest/globals';
import { ageOn, ageProofs } from '../../../../src/domain/credentials/age_proofs.js';

const at = (iso: string) => Date.parse(iso);

describe('age proofs from a verified date of birth', () => {
  it('answers each threshold and says when the first false one turns true', () => {
    const proofs = ageProofs('2007-06-15', at('2026-11-28T10:00:00Z'), [21, 18, 65]);
    expect(proofs).toEqual({ ageEqualOrOver: { '18': true, '21': false, '65': false }, changesAt: at('2028-06-15T00:00:00Z') });
  });

  it('turns on the birthday itself, from its first millisecond (UTC)', () => {
    expect(ageProofs('2008-11-28', at('2026-11-27T23:59:59.999Z'), [18])!.ageEqualOrOver).toEqual({ '18': false });
    expect(ageProofs('2008-11-28', at('2026-11-28T00:00:00Z'), [18])!.ageEqualOrOver).toEqual({ '18': true });
  });

  it('counts a 29 February birthday from 1 March in other years', () => {
    expect(ageOn('2008-02-29', at('2026-02-28T12:00:00Z'))).toBe(17);
    expect(ageOn('2008-02-29', at('2026-03-01T00:00:00Z'))).toBe(18);
    expect(ageProofs('2008-02-29', at('2025-06-01T00:00:00Z'), [18])!.changesAt).toBe(at('2026-03-01T00:00:00Z'));
  });

  it('has no change ahead once every proof is true', () => {
    expect(ageProofs('1950-01-01', at('2026-11-28T00:00:00Z'), [18, 21])).toEqual({ ageEqualOrOver: { '18': true, '21': true }, changesAt: undefined });
  });

  it('refuses what is not a date of birth', () => {
    for (const bad of ['2001-02-30', '2001-13-01', '01-01-2001', '2030-01-01', '']) expect(ageProofs(bad, at('2026-11-28T00:00:00Z'), [18])).toBeUndefined();
  });
});
