// What a client's logo may be, read from its first bytes (their magic numbers), never from the
// Content-Type its server sent: PNG, JPEG, WebP or GIF. SVG is never one: it is a document that
// can hold script and links, where these are pixels only.

export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

const startsWith = (bytes: Uint8Array, at: number, expected: readonly number[]) => expected.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

/** The image type these bytes are, by their signature, or undefined when none of the four. */
export function logoTypeOf(bytes: Uint8Array): LogoType | undefined {
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, 0, ascii('RIFF')) && startsWith(bytes, 8, ascii('WEBP'))) return 'image/webp';
  if (startsWith(bytes, 0, ascii('GIF87a')) || startsWith(bytes, 0, ascii('GIF89a'))) return 'image/gif';
  return undefined;
}
