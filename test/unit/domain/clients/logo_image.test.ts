// A logo's type is read from its first bytes: the four image signatures, nothing else (decision 81).
import { logoTypeOf } from '../../../../src/domain/clients/logo_image.js';

const bytes = (hex: string, text = '') => Buffer.concat([Buffer.from(hex, 'hex'), Buffer.from(text)]);

test.each([
  ['a PNG', bytes('89504e470d0a1a0a0000000d49484452'), 'image/png'],
  ['a JPEG', bytes('ffd8ffe000104a464946'), 'image/jpeg'],
  ['a WebP', Buffer.concat([Buffer.from('RIFF'), bytes('24000000'), Buffer.from('WEBPVP8 ')]), 'image/webp'],
  ['a GIF89a', Buffer.from('GIF89a\x01\x00\x01\x00'), 'image/gif'],
  ['a GIF87a', Buffer.from('GIF87a\x01\x00\x01\x00'), 'image/gif'],
])('%s is %s', (_what, given, type) => {
  expect(logoTypeOf(given)).toBe(type);
});

test.each([
  ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
  ['an SVG after an XML declaration', Buffer.from('<?xml version="1.0"?><svg/>')],
  ['HTML', Buffer.from('<!doctype html><img src=x onerror=alert(1)>')],
  ['a RIFF that is not WebP (a WAV)', Buffer.concat([Buffer.from('RIFF'), bytes('24000000'), Buffer.from('WAVEfmt ')])],
  ['a PNG signature cut short', bytes('89504e470d0a1a')],
  ['nothing', Buffer.alloc(0)],
])('%s is no logo', (_what, given) => {
  expect(logoTypeOf(given)).toBeUndefined();
});
