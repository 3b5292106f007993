// Tests wait one way: every wait for a condition goes through test/support/wait_until.ts
// (waitFor / waitUntil: a deadline, a named failure), never a hand-written polling loop. Each
// file under test/ (but that helper) is parsed (swc, the parser Jest runs them with) and these
// are refused, each named by file and line:
//   timer-promise   a promise around setTimeout/setInterval: a hand-made sleep (use `sleep`);
//   timer-in-loop   a loop (while, do, for, for-of, for-in) that awaits a timer between its
//                   rounds: sleep, sleepAtLeast, setTimeout, setInterval, waitForTimeout, or a
//                   local function or alias that does;
//   clock-in-loop   a loop whose condition reads the clock (Date.now(), performance.now(),
//                   new Date(), process.hrtime, or a local function that does), or whose body
//                   throws, breaks or returns on such a reading: a deadline;
//   recursive-poll  a named function that waits on a timer and calls itself.
// Functions nested in a loop are not the loop's rounds (a request handler, a callback), but a
// promise's executor is read with it. A loop that is not a wait (a load that runs for a time) is
// let through only by name below; an exemption that no longer matches fails too.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseSync } from '@swc/core';
import { projectRoot } from '../../src/base/project_root.js';

type Node = { type: string; span?: { start: number }; [key: string]: unknown };
type Finding = { line: number; rule: string };

const HELPER = 'test/support/wait_until.ts';
const TIMERS = ['sleep', 'sleepAtLeast', 'setTimeout', 'setInterval'];
const LOOPS = new Set(['WhileStatement', 'DoWhileStatement', 'ForStatement', 'ForOfStatement', 'ForInStatement']);
const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'PrivateMethod',
  'Constructor',
  'MethodProperty',
  'GetterProperty',
  'SetterProperty',
]);

/** Let through, by file and the line found (trimmed), with why: loops that are no wait, and plain Node that cannot import the helper. */
const EXEMPT: { file: string; line: string; rules: string[]; why: string }[] = [
  {
    file: 'test/cluster/sentinel_failover.test.ts',
    line: 'while (!stop()) {',
    rules: ['timer-in-loop'],
    why: 'a login load that runs until told to stop, pausing after a failed login so that the outage is not flooded',
  },
  {
    file: 'test/integration/retention_soak.test.ts',
    line: 'for (let i = 0; i < REFRESHES && Date.now() < refreshUntil; i++) {',
    rules: ['clock-in-loop'],
    why: 'a refresh load bounded by a count and a time, not a wait for a condition',
  },
  {
    file: 'test/support/run_processes.mjs',
    line: "while (Date.now() < deadline && processTable().some((each) => pids.has(each.pid) && each.state !== 'Z')) {",
    rules: ['timer-in-loop', 'clock-in-loop'],
    why: "plain Node for scripts/test.mjs and Jest's global set-up and teardown, which cannot import the TypeScript helper",
  },
  {
    file: 'test/support/run_processes.mjs',
    line: 'await new Promise((resolve) => setTimeout(resolve, 20));',
    rules: ['timer-promise'],
    why: 'the same wait (killed processes gone)',
  },
];

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

/** The child nodes of `node`, in source order. */
function children(node: Node): Node[] {
  const found: Node[] = [];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (isNode(value)) found.push(value);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  for (const [key, value] of Object.entries(node)) if (key !== 'span') collect(value);
  return found;
}

/** Whether `test` holds for `node` or a node under it; nested functions skipped unless `deep`. */
function some(node: Node, test: (node: Node) => boolean, deep = false): boolean {
  if (test(node)) return true;
  return children(node).some((child) => (deep || !FUNCTIONS.has(child.type) ? some(child, test, deep) : false));
}

const name = (node: unknown): string | undefined => (isNode(node) && node.type === 'Identifier' ? (node.value as string) : undefined);
const member = (node: unknown): [string | undefined, string | undefined] =>
  isNode(node) && node.type === 'MemberExpression' ? [name(node.object), name(node.property)] : [undefined, undefined];

function scan(source: string, syntax: 'typescript' | 'ecmascript'): Finding[] {
  // A known first statement gives the parser's offset base (spans are byte positions, counted on across parses).
  const prefix = '0;\n';
  const module = parseSync(prefix + source, { syntax, target: 'esnext' }) as unknown as Node & { body: Node[] };
  const base = module.body[0]!.span!.start + prefix.length;
  const bytes = Buffer.from(source);
  const lineOf = (node: Node) =>
    bytes
      .subarray(0, node.span!.start - base)
      .toString()
      .split('\n').length;

  const timers = new Set(TIMERS);
  const clocks = new Set<string>();
  const isClock = (node: Node) => {
    const [object, property] = member(node.callee);
    if (node.type === 'CallExpression' && ((object === 'Date' && property === 'now') || (object === 'performance' && property === 'now'))) return true;
    if (node.type === 'CallExpression' && clocks.has(name(node.callee) ?? '')) return true;
    // process.hrtime() and process.hrtime.bigint()
    if (
      node.type === 'CallExpression' &&
      [member(node.callee), isNode(node.callee) ? member(node.callee.object) : []].some((each) => each.join('.') === 'process.hrtime')
    )
      return true;
    return node.type === 'NewExpression' && name(node.callee) === 'Date' && !(node.arguments as unknown[] | undefined)?.length;
  };
  const isTimerPromise = (node: Node) =>
    node.type === 'NewExpression' &&
    name(node.callee) === 'Promise' &&
    some(node, (inner) => inner.type === 'CallExpression' && ['setTimeout', 'setInterval'].includes(name(inner.callee) ?? ''), true);
  const isTimer = (node: Node) =>
    (node.type === 'CallExpression' && (timers.has(name(node.callee) ?? '') || member(node.callee)[1] === 'waitForTimeout')) || isTimerPromise(node);
  const waitsOnTimer = (node: Node) => some(node, isTimer);

  // Local names for a timer or a clock: imports renamed, aliases, and thin wrappers (a function
  // whose body is one expression or statement); a larger function that waits is no timer itself.
  const thin = (fn: Node): Node | undefined => {
    const body = fn.body as Node | undefined;
    if (!body) return undefined;
    if (body.type !== 'BlockStatement' && body.type !== 'FunctionBody') return body;
    const stmts = body.stmts as Node[];
    return stmts.length === 1 ? stmts[0] : undefined;
  };
  const named: [string, Node][] = [];
  const gather = (node: Node) => {
    if (node.type === 'ImportSpecifier' && isNode(node.imported) && timers.has(name(node.imported) ?? '')) timers.add(name(node.local)!);
    if (node.type === 'FunctionDeclaration' && name(node.identifier)) named.push([name(node.identifier)!, node]);
    if (node.type === 'VariableDeclarator' && name(node.id) && isNode(node.init)) named.push([name(node.id)!, node.init]);
    children(node).forEach(gather);
  };
  gather(module);
  for (let grown = true; grown; ) {
    grown = false;
    for (const [local, value] of named) {
      const only = FUNCTIONS.has(value.type) ? thin(value) : undefined;
      if (!timers.has(local) && (name(value) ? timers.has(name(value)!) : only !== undefined && waitsOnTimer(only))) {
        timers.add(local);
        grown = true;
      }
      if (!clocks.has(local) && (name(value) ? clocks.has(name(value)!) : only !== undefined && some(only, isClock))) {
        clocks.add(local);
        grown = true;
      }
    }
  }

  const findings: Finding[] = [];
  const leaves = (node: Node) => some(node, (inner) => ['ThrowStatement', 'BreakStatement', 'ReturnStatement'].includes(inner.type));
  const visit = (node: Node) => {
    if (isTimerPromise(node)) findings.push({ line: lineOf(node), rule: 'timer-promise' });
    if (LOOPS.has(node.type)) {
      const parts = children(node);
      if (parts.some(waitsOnTimer)) findings.push({ line: lineOf(node), rule: 'timer-in-loop' });
      const test = isNode(node.test) ? node.test : undefined;
      const deadline =
        (test !== undefined && some(test, isClock)) ||
        parts.some((part) => some(part, (inner) => inner.type === 'IfStatement' && some(inner.test as Node, isClock) && leaves(inner.consequent as Node)));
      if (deadline) findings.push({ line: lineOf(node), rule: 'clock-in-loop' });
    }
    if (node.type === 'FunctionDeclaration' && name(node.identifier)) {
      const self = name(node.identifier)!;
      const body = children(node);
      if (body.some(waitsOnTimer) && body.some((part) => some(part, (inner) => name(inner) === self && inner !== node.identifier, true)))
        findings.push({ line: lineOf(node), rule: 'recursive-poll' });
    }
    children(node).forEach(visit);
  };
  module.body.slice(1).forEach(visit);
  return findings;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : /\.(ts|mts|mjs|js)$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

const syntaxOf = (file: string) => (/\.(ts|mts)$/.test(file) ? 'typescript' : 'ecmascript');

test('no file under test/ waits by a hand-written polling loop: each wait goes through wait_until.ts', () => {
  const found: string[] = [];
  const used = new Set<(typeof EXEMPT)[number]>();
  for (const path of filesUnder(join(projectRoot, 'test'))) {
    const file = relative(projectRoot, path);
    if (file === HELPER) continue;
    const source = readFileSync(path, 'utf8');
    const lines = source.split('\n');
    for (const { line, rule } of scan(source, syntaxOf(file))) {
      const exempt = EXEMPT.find((each) => each.file === file && each.rules.includes(rule) && each.line === lines[line - 1]!.trim());
      if (exempt) used.add(exempt);
      else found.push(`${file}:${line}: ${rule}: ${lines[line - 1]!.trim()}`);
    }
  }
  expect(found).toEqual([]);
  expect(EXEMPT.filter((each) => !used.has(each)).map((each) => `${each.file}: ${each.line}`)).toEqual([]);
});

// The patterns above, on the loops this guard replaced and on code that is no wait.
const refused: [string, string[]][] = [
  [
    'let r = await get();\nfor (let i = 0; i < 100 && r.status === "pending"; i++) {\n  await new Promise((resolve) => setTimeout(resolve, 50));\n  r = await get();\n}',
    ['timer-in-loop@2', 'timer-promise@3'],
  ],
  ['const deadline = Date.now() + 5000;\nwhile (!found && Date.now() < deadline) {\n  found = await look();\n}', ['clock-in-loop@2']],
  ['for (;;) {\n  if (await ready()) break;\n  if (Date.now() > until) throw new Error("late");\n}', ['clock-in-loop@1']],
  ['import { sleep as nap } from "./wait_until.js";\ndo { await nap(5); } while (!(await ready()));', ['timer-in-loop@2']],
  ['const pause = sleep;\nwhile (!done) await pause(5);', ['timer-in-loop@2']],
  ['const rest = () => sleep(5);\nfor (const _ of Array(100)) { if (await ready()) break; await rest(); }', ['timer-in-loop@2']],
  ['const late = () => performance.now() > until;\nwhile (!late()) await look();', ['clock-in-loop@2']],
  ['async function poll() {\n  if (await ready()) return;\n  await sleep(5);\n  return poll();\n}', ['recursive-poll@1']],
  ['await new Promise((done) => { const t = setInterval(() => { if (ready) { clearInterval(t); done(); } }, 5); });', ['timer-promise@1']],
  ['while (!ready) await page.waitForTimeout(100);', ['timer-in-loop@1']],
  ['async function nap() {\n  await sleep(5);\n}\nwhile (!(await ready())) await nap();', ['timer-in-loop@4']],
];
const letThrough = [
  'async function scenario(step) {\n  await step.start();\n  await sleep(1000);\n  await step.check();\n}\nfor (const step of steps) await scenario(step);',
  'await waitUntil("it is ready", () => ready, { timeoutMs: 5000, everyMs: 50 });',
  'await sleep(1500); // time let pass on purpose',
  'for (const hash of hashes) await waitForSeen("each event", hash);',
  'for (let i = 0; i < 5; i++) expect(await status()).toBe(200);',
  'do { [cursor, batch] = await redis.scan(cursor); } while (cursor !== "0");',
  'const started = Date.now();\nfor (const answer of answers) expect(answer.ms).toBeLessThan(1000);\nexpect(Date.now() - started).toBeLessThan(2000);',
  'for (const each of list) server.on("request", async () => { await sleep(each.delayMs); });',
  'const watch = setInterval(look, 5);\ntry { await work(); } finally { clearInterval(watch); }',
  'async function once() {\n  for (let attempt = 1; ; attempt++) {\n    try {\n      return await start();\n    } catch (error) {\n      if (attempt >= 3) throw error;\n    }\n  }\n}',
];

test.each(refused)('refused: %s', (source, rules) => {
  expect(scan(source, 'typescript').map((each) => `${each.rule}@${each.line}`)).toEqual(rules);
});

test.each(letThrough)('let through: %s', (source) => {
  expect(scan(source, 'typescript')).toEqual([]);
});
