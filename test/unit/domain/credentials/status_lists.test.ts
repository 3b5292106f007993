import { deflateSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { StatusList } from '@sd-jwt/jwt-status-list';
import { statusBytes } from '../../../../src/domain/credentials/status_lists.js';

describe('status list bits', () => {
  it('are ordered as the Token Status List specifies: index 0 is the least significant bit of the first byte', () => {
    // The specification's example: statuses 1 0 0 1 1 1 0 1 1 1 0 0 0 1 0 1 (index 0 first) are bytes b9 a3.
    const statuses = '1001110111000101';
    const revoked = [...statuses].flatMap((bit, index) => (bit === '1' ? [index] : []));
    expect(Buffer.from(statusBytes(revoked, 16)).toString('hex')).toBe('b9a3');
  });

  it('read back by an independent implementation, index by index', () => {
    const revoked = [0, 7, 8, 1000, 131_071];
    const list = StatusList.decompressStatusList(Buffer.from(deflateSync(statusBytes(revoked))).toString('base64url'), 1);
    for (const index of [0, 1, 7, 8, 9, 999, 1000, 131_070, 131_071])
      expect({ index, bit: list.getStatus(index) }).toEqual({ index, bit: revoked.includes(index) ? 1 : 0 });
  });

  it('ignore what is not an index of the list', () => {
    expect(Buffer.from(statusBytes([-1, 16, 2.5, Number.NaN], 16)).toString('hex')).toBe('0000');
  });
});
