/**
 * Token colours for light and dark at once. prism-react-renderer styles tokens
 * inline from one theme, which would need JavaScript to follow the system
 * theme (and flash on first paint). Instead each token carries both colours as
 * CSS variables and the `dark:` variant (a prefers-color-scheme media query)
 * picks one, so server HTML is already right in both modes.
 */
import type { CSSProperties } from "react";
import { themes, type PrismTheme, type PrismThemeEntry } from "prism-react-renderer";

type Dict = Record<string, PrismThemeEntry>;

/** Same merge as prism-react-renderer's themeToDict: later entries win, language-scoped ones only for that language. */
function toDict(theme: PrismTheme, language: string): Dict {
  const dict: Dict = {};
  for (const entry of theme.styles) {
    if (entry.languages && !entry.languages.includes(language)) continue;
    for (const type of entry.types) dict[type] = { ...dict[type], ...entry.style };
  }
  return dict;
}

function merged(dict: Dict, types: readonly string[]): PrismThemeEntry {
  let out: PrismThemeEntry = {};
  for (const t of types) if (t !== "plain" && dict[t]) out = { ...out, ...dict[t] };
  return out;
}

const LIGHT = themes.oneLight;
const DARK = themes.oneDark;
const cache = new Map<string, { light: Dict; dark: Dict }>();

function dicts(language: string) {
  let d = cache.get(language);
  if (!d) {
    d = { light: toDict(LIGHT, language), dark: toDict(DARK, language) };
    cache.set(language, d);
  }
  return d;
}

/** Variables for a token; unset ones inherit the block's plain colour. */
export function tokenVars(language: string, types: readonly string[]): CSSProperties | undefined {
  const { light, dark } = dicts(language);
  const l = merged(light, types);
  const d = merged(dark, types);
  const vars: Record<string, string> = {};
  if (l.color) vars["--tok-l"] = l.color;
  if (d.color) vars["--tok-d"] = d.color;
  if (l.fontStyle) vars["--tok-fs-l"] = l.fontStyle;
  if (d.fontStyle) vars["--tok-fs-d"] = d.fontStyle;
  return Object.keys(vars).length > 0 ? (vars as CSSProperties) : undefined;
}

/** The block's plain text and background colours, as variables. */
export const blockVars = {
  "--tok-l": LIGHT.plain.color,
  "--tok-d": DARK.plain.color,
  "--tok-bg-l": LIGHT.plain.backgroundColor,
  "--tok-bg-d": DARK.plain.backgroundColor,
  "--tok-fs-l": "normal",
  "--tok-fs-d": "normal",
} as CSSProperties;

/** Classes that read the variables above (token spans and the block both use them). */
export const TOKEN_CLASS = "text-(color:--tok-l) [font-style:var(--tok-fs-l)] dark:text-(color:--tok-d) dark:[font-style:var(--tok-fs-d)]";
export const BLOCK_CLASS = `${TOKEN_CLASS} bg-(color:--tok-bg-l) dark:bg-(color:--tok-bg-d)`;
