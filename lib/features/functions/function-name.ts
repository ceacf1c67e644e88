const TOP_LEVEL_DEF = /^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/gm;

/**
 * The name a coder result is kept under: the function its test calls (the
 * coder writes one function, maybe with helpers, and a test that calls it);
 * without such a call, the last function defined at the top level. Null when
 * the code defines none.
 */
export function functionName(code: string, test: string): string | null {
  const defined = [...code.matchAll(TOP_LEVEL_DEF)].map((m) => m[1]!);
  if (defined.length === 0) return null;
  const called = defined.filter((name) => new RegExp(`\\b${name}\\s*\\(`).test(test));
  const publicCalled = called.filter((name) => !name.startsWith("_"));
  return publicCalled[0] ?? called[0] ?? defined.filter((n) => !n.startsWith("_")).at(-1) ?? defined.at(-1)!;
}

/** Function names the run endpoint accepts: Python identifiers. */
export const FUNCTION_NAME = /^[A-Za-z_]\w{0,99}$/;
