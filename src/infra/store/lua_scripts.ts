// Lua scripts live in .lua files beside the code that runs them, so each reads as Lua and is
// tested by name. They are read once per process, when the module that lists them loads; each
// client then registers them with defineCommand, which sends a script's hash (EVALSHA) once
// the server knows its text. `npm run build` copies the files beside the compiled code
// (scripts/copy_lua_scripts.mjs).
import { readFileSync } from 'node:fs';
import type { RedisClient } from './redis_connection.js';

/** How one file is run: a fixed key count (else each call passes its own), a library it builds on. */
export type LuaScriptSpec = {
  readonly numberOfKeys?: number;
  /** A file of the same folder whose functions the script calls; its text goes first. */
  readonly library?: string;
};

export type LuaScript = {
  /** The command name it is registered under: the file's name in camelCase (mark_once.lua: markOnce). */
  readonly name: string;
  /** The files it is made of, the library first. */
  readonly files: readonly string[];
  readonly lua: string;
  readonly numberOfKeys?: number;
};

/** mark_once.lua -> markOnce. */
export const commandNameOf = (file: string): string => file.replace(/\.lua$/, '').replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * Reads the files named in `specs` from `folder` (a URL ending in '/', relative to the calling
 * module), each library once. A missing file fails the start, not a request.
 */
export function readLuaScripts(folder: URL, specs: Readonly<Record<string, LuaScriptSpec>>): readonly LuaScript[] {
  const texts = new Map<string, string>();
  const read = (file: string) => {
    let text = texts.get(file);
    if (text === undefined) {
      text = readFileSync(new URL(file, folder), 'utf8');
      texts.set(file, text);
    }
    return text;
  };
  return Object.entries(specs).map(([file, spec]) => {
    const files = spec.library ? [spec.library, file] : [file];
    return { name: commandNameOf(file), files, lua: files.map(read).join('\n'), numberOfKeys: spec.numberOfKeys };
  });
}

/** Registers each script on a client (a server's or a cluster's) under its name. */
export function defineLuaScripts(client: RedisClient, scripts: readonly LuaScript[]): void {
  for (const script of scripts) {
    client.defineCommand(script.name, script.numberOfKeys === undefined ? { lua: script.lua } : { numberOfKeys: script.numberOfKeys, lua: script.lua });
  }
}

/** One script of a list, by its file's name: for the parts that hand a script's text to a library. */
export function luaScriptOf(scripts: readonly LuaScript[], file: string): LuaScript {
  const script = scripts.find((each) => each.files.at(-1) === file);
  if (!script) throw new Error(`no Lua script ${file}`);
  return script;
}
