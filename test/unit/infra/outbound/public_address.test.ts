// refusedRange: which addresses a URL given at run time may reach, with and without
// WEBHOOKS_ALLOW_PRIVATE; the metadata endpoints and non-unicast ranges are refused in every mode.
import { refusedRange } from '../../../../src/infra/outbound/public_address.js';

describe('refusedRange', () => {
  test.each([['8.8.8.8'], ['93.184.215.14'], ['2606:4700::1111'], ['::ffff:8.8.8.8']])('%s is public', (address) => {
    expect(refusedRange(address, false)).toBeUndefined();
    expect(refusedRange(address, true)).toBeUndefined();
  });

  test.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.0.1', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
  ])('%s is %s: refused, allowed for development', (address, range) => {
    expect(refusedRange(address, false)).toBe(range);
    expect(refusedRange(address, true)).toBeUndefined();
  });

  test.each([
    ['169.254.169.254', 'cloud metadata'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['not-an-ip', 'not an IP address'],
  ])('%s is %s: refused in every mode', (address, range) => {
    expect(refusedRange(address, false)).toBe(range);
    expect(refusedRange(address, true)).toBe(range);
  });
});
