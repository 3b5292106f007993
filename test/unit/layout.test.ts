// src/ shows the plan: its folders are the layers of scripts/layers.cjs, in no other place kept by
// hand. docs/architecture.md's table names each layer in that order and, in each, exactly the
// folders on disk; its table of feature pairs is the list the dependency rules allow.
// test/unit/ mirrors src/, so a file's tests are found by its path.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../../src/base/project_root.js';

type Pair = { from: string; to: string; why: string };
const { LAYERS, ALLOWED_FEATURE_PAIRS } = createRequire(import.meta.url)('../../scripts/layers.cjs') as { LAYERS: string[]; ALLOWED_FEATURE_PAIRS: Pair[] };

// The tests of the repository as a whole rather than of one src/ file: they sit at test/unit/'s top,
// where src/ has no file (docs/development.md, "Where a unit test goes").
const REPOSITORY_CHECKS = ['contract_check.test.ts', 'docs_links.test.ts', 'layout.test.ts', 'tests_wait_one_way.test.ts'];

const architecture = readFileSync(join(projectRoot, 'docs', 'architecture.md'), 'utf8');
const section = (title: string) => {
  const start = architecture.indexOf(`## ${title}`);
  expect(start).toBeGreaterThan(-1);
  const end = architecture.indexOf('\n## ', start + 1);
  return architecture.slice(start, end === -1 ? undefined : end);
};
const cells = (row: string) =>
  row
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim().replace(/^`|`$/g, '').replace(/\/$/, ''));
const tableRows = (text: string) =>
  text
    .split('\n')
    .filter((line) => /^\s*\|/.test(line) && !/^\s*\|\s*-/.test(line))
    .slice(1);
const foldersIn = (path: string) =>
  readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

test('src/ holds the layers and nothing else: one folder each, no loose file', () => {
  const entries = readdirSync(join(projectRoot, 'src'), { withFileTypes: true });
  expect(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
  expect(entries.map((entry) => entry.name).sort()).toEqual([...LAYERS].sort());
});

test("the architecture's table lists the layers in their order and, in each, the folders on disk", () => {
  const listed = new Map<string, string[]>();
  let layer = '';
  for (const row of tableRows(section('The layers and their parts'))) {
    const [layerCell, part] = cells(row);
    if (layerCell) layer = layerCell;
    if (!listed.has(layer)) listed.set(layer, []);
    if (part) listed.get(layer)!.push(part);
  }
  expect([...listed.keys()]).toEqual(LAYERS);
  for (const each of LAYERS) expect([each, [...listed.get(each)!].sort()]).toEqual([each, foldersIn(join(projectRoot, 'src', each))]);
});

test('the feature pairs the architecture explains are the ones the dependency rules allow, and each names two features', () => {
  const features = foldersIn(join(projectRoot, 'src', 'features'));
  const documented = tableRows(section('Layers')).map((row) => cells(row).slice(0, 2));
  expect(documented).toEqual(ALLOWED_FEATURE_PAIRS.map((pair) => [pair.from, pair.to]));
  for (const pair of ALLOWED_FEATURE_PAIRS) expect(features).toEqual(expect.arrayContaining([pair.from, pair.to]));
});

const foldersUnder = (root: string, at = ''): string[] =>
  foldersIn(join(root, at)).flatMap((name) => {
    const path = at ? `${at}/${name}` : name;
    return [path, ...foldersUnder(root, path)];
  });

test("test/unit/ lists src/'s layer folders, and each of its folders is one src/ has; only the repository's own checks sit loose at its top", () => {
  const unit = join(projectRoot, 'test', 'unit');
  expect(foldersIn(unit)).toEqual(foldersIn(join(projectRoot, 'src')));
  const src = new Set(foldersUnder(join(projectRoot, 'src')));
  expect(foldersUnder(unit).filter((folder) => !src.has(folder))).toEqual([]);
  const loose = readdirSync(unit, { withFileTypes: true }).filter((entry) => !entry.isDirectory());
  expect(loose.map((entry) => entry.name).sort()).toEqual(REPOSITORY_CHECKS);
});
