// public/'s files (the scripts, the stylesheet, the icon), read once per process: the static
// files serve them at /static/ and the page renderer carries them in pages.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type PublicFile = { name: string; body: Buffer };

const read = new Map<string, readonly PublicFile[]>();

export function publicFiles(publicDir: string): readonly PublicFile[] {
  let files = read.get(publicDir);
  if (!files) {
    files = readdirSync(publicDir).map((name) => ({ name, body: readFileSync(join(publicDir, name)) }));
    read.set(publicDir, files);
  }
  return files;
}
