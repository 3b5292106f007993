// Whether a request's path is one the engine answers as its route `route`: the engine's router
// compares paths without regard to ASCII case and takes one trailing slash (`/token`, `/TOKEN`,
// `/token/` are one endpoint), and a check guarding an engine route must match every one of
// them, or a variant walks past it. Non-ASCII letters are left as they are, as the engine does
// (its folding never turns one into an ASCII letter; nor does a case-insensitive pattern without
// the `u` flag).

/** The paths the engine answers as `route`, as one pattern: built once by a check that runs on every request. */
export const enginePathPattern = (route: string): RegExp => new RegExp(`^${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`, 'i');

const patterns = new Map<string, RegExp>();

export function isEnginePath(path: string, route: string): boolean {
  let pattern = patterns.get(route);
  if (!pattern) {
    pattern = enginePathPattern(route);
    patterns.set(route, pattern);
  }
  return pattern.test(path);
}
