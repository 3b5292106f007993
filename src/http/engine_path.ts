// Whether a request's path is one the engine answers as its route `route`: the engine's router
// compares paths without regard to ASCII case and takes one trailing slash (`/token`, `/TOKEN`,
// `/token/` are one endpoint), and a check guarding an engine route must match every one of
// them, or a variant walks past it. Non-ASCII letters are left as they are, as the engine does
// (its folding never turns one into an ASCII letter).
const asciiUpper = (text: string) => text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());

export function isEnginePath(path: string, route: string): boolean {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return asciiUpper(bare) === asciiUpper(route);
}
