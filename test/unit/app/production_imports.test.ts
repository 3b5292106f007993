// The production entry's import graph, read from the sources: src/app/main.ts reaches no file of
// src/demo/ and no development package (those are absent after `npm install --omit=dev`).
// The demo entry does reach the demo. CI also runs the pruned build (scripts/production_check.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { projectRoot } from '../../../src/base/project_root.js';

const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Every source file and package the entry reaches through static and dynamic imports. */
function reach(entry: string) {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of Array.from(source.matchAll(/(?:import|export)\s[^'"]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm)).map(
      (m: RegExpExecArray) => [m[0], m[1] ?? m[2] ?? m[3]] as const,
    )) {
      if (!specifier) continue;
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
        if (existsSync(target)) visit(target);
      } else if (!specifier.startsWith('node:')) {
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
      }
    }
  };
  visit(join(projectRoot, entry));
  return { files: [...files].map((file) => relative(projectRoot, file)), packages: [...packages] };
}

test('src/app/main.ts reaches no demo code and only production dependencies', () => {
  const { files, packages } = reach('src/app/main.ts');
  expect(files).toContain('src/app/server.ts');
  expect(files).toContain('src/app/app.ts');
  expect(files.filter((file) => file.startsWith('src/demo/'))).toEqual([]);
  expect(packages.filter((name) => !(name in pkg.dependencies))).toEqual([]);
  expect(packages).toEqual(expect.arrayContaining(['koa', 'oidc-provider', 'pino', 'prom-client', 'viem']));
});

test('anvil and openid-client are development packages, loaded by the demo only', () => {
  expect(Object.keys(pkg.devDependencies)).toEqual(expect.arrayContaining(['@foundry-rs/anvil', 'openid-client']));
  expect(Object.keys(pkg.dependencies)).not.toContain('@foundry-rs/anvil');
  const demo = reach('src/demo/demo_main.ts');
  expect(demo.files).toEqual(expect.arrayContaining(['src/demo/demo_server.ts', 'src/infra/local_chain/anvil.ts', 'src/app/server.ts']));
  expect(demo.packages).toContain('openid-client');
});
