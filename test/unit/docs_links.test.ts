// Every relative link of README.md and docs/*.md leads to a file that exists and, when it names
// a heading (`file.md#anchor`), to a heading of that file (anchors as GitHub makes them).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { projectRoot } from '../../src/base/project_root.js';

const docs = [
  join(projectRoot, 'README.md'),
  ...readdirSync(join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(projectRoot, 'docs', name)),
];

const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, '');

/** The anchors of a Markdown file's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCode(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, '')
      .replaceAll(' ', '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

test('every relative link of README.md and docs/*.md resolves to a file and a heading', () => {
  const broken: string[] = [];
  let links = 0;
  for (const file of docs) {
    for (const [, target] of withoutCode(readFileSync(file, 'utf8')).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      links++;
      const [path, anchor] = target!.split('#', 2) as [string, string | undefined];
      const destination = path ? join(dirname(file), path) : file;
      const from = relative(projectRoot, file);
      if (!existsSync(destination)) broken.push(`${from}: ${target} (no such file)`);
      else if (anchor && destination.endsWith('.md') && !anchorsOf(destination).has(anchor)) broken.push(`${from}: ${target} (no such heading)`);
    }
  }
  expect(links).toBeGreaterThan(100);
  expect(broken).toEqual([]);
});
