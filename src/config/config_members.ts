// The members of the settings, checked before the schema reads them (decision 44): a member no
// setting has stops the start, naming its path and the member it most looks like, where the
// schema alone would drop it silently (a misspelt trust framework, a rate-limit class that does
// nothing); and the members of JSON settings are spelt one way, snake_case, as CLIENTS and CHAINS
// are by their standards, the old camelCase spellings still read for a release with a warning.
import type { z } from 'zod';
import { ConfigError } from '../base/errors.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

type Respelt = { objects: (raw: Json) => { path: string; object: Json }[]; members: { spelt: string; old: string }[] };

/**
 * Where a JSON setting's members changed spelling: the objects (found in the raw settings), and
 * each member's one spelling (the schema's) and its old camelCase one. `rateLimitClasses`: the
 * classes as RATE_LIMITS spells them.
 */
const respelt = (rateLimitClasses: readonly string[]): Respelt[] => [
  {
    objects: (raw) => listAt(raw, ['claims', 'trustedIssuers'], 'claims.trustedIssuers'),
    members: [{ spelt: 'trust_frameworks', old: 'trustFrameworks' }],
  },
  {
    objects: (raw) => (isObject(raw.displayNames) ? [{ path: 'displayNames', object: raw.displayNames }] : []),
    members: [{ spelt: 'trust_frameworks', old: 'trustFrameworks' }],
  },
  {
    objects: (raw) => (isObject(raw.rateLimits) ? [{ path: 'rateLimits', object: raw.rateLimits }] : []),
    members: rateLimitClasses.map((spelt) => ({ spelt, old: camel(spelt) })),
  },
];

function listAt(raw: Json, keys: string[], path: string): { path: string; object: Json }[] {
  let node: unknown = raw;
  for (const key of keys) node = isObject(node) ? node[key] : undefined;
  return Array.isArray(node) ? node.flatMap((entry, i) => (isObject(entry) ? [{ path: `${path}.${i}`, object: entry }] : [])) : [];
}

/**
 * Respells the old camelCase members of JSON settings into their one spelling, snake_case (the
 * schema's), in place; returns a warning for each old spelling read. Both spellings of one member
 * stop the start.
 */
export function respellMembers(raw: Json, rateLimitClasses: readonly string[]): string[] {
  const warnings: string[] = [];
  for (const { objects, members } of respelt(rateLimitClasses)) {
    for (const { path, object } of objects(raw)) {
      for (const { spelt, old } of members) {
        if (spelt === old || !(old in object)) continue;
        if (spelt in object) throw new ConfigError(`${path}.${spelt}`, `is given twice, as ${spelt} and as ${old}: keep ${spelt}`);
        warnings.push(`${path}.${old} is the old spelling of ${path}.${spelt}: it is read in this release only, write ${spelt}`);
        object[spelt] = object[old];
        delete object[old];
      }
    }
  }
  return warnings;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  catchall?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The first member of `raw` that `schema` has no place for, with its path and the known member it most looks like. */
export function unknownMember(schema: z.ZodType, raw: unknown, path: string[] = []): { path: string; known: string[] } | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
      return def.innerType ? unknownMember(def.innerType, raw, path) : undefined;
    case 'pipe':
      return def.in ? unknownMember(def.in, raw, path) : undefined;
    case 'array':
      if (!Array.isArray(raw) || !def.element) return undefined;
      for (const [i, entry] of raw.entries()) {
        const found = unknownMember(def.element, entry, [...path, String(i)]);
        if (found) return found;
      }
      return undefined;
    case 'record':
      if (!isObject(raw) || !def.valueType) return undefined;
      for (const [key, value] of Object.entries(raw)) {
        const found = unknownMember(def.valueType, value, [...path, key]);
        if (found) return found;
      }
      return undefined;
    case 'union': {
      // The option an object is meant for: the one with object members.
      const objectOption = (def.options ?? []).find((option) => defOf(option).type === 'object');
      return isObject(raw) && objectOption ? unknownMember(objectOption, raw, path) : undefined;
    }
    case 'object': {
      if (!isObject(raw) || !def.shape) return undefined;
      // A schema open to any member (a JSON Web Key's) has no unknown ones.
      const open = def.catchall && defOf(def.catchall).type !== 'never';
      for (const [key, value] of Object.entries(raw)) {
        const inner = def.shape[key];
        if (!inner) {
          if (open) continue;
          return { path: [...path, key].join('.'), known: Object.keys(def.shape) };
        }
        const found = unknownMember(inner, value, [...path, key]);
        if (found) return found;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The known name nearest to `name` (case, "_" and "-" aside, then by edit distance), if near enough to be meant. */
export function nearest(name: string, known: readonly string[]): string | undefined {
  const plain = (text: string) => text.toLowerCase().replace(/[_-]/g, '');
  const exact = known.find((each) => plain(each) === plain(name));
  if (exact) return exact;
  let best: { name: string; distance: number } | undefined;
  for (const each of known) {
    const distance = editDistance(plain(name), plain(each));
    if (!best || distance < best.distance) best = { name: each, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 4)) ? best.name : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
