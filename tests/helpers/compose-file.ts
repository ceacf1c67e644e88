import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";

/**
 * deploy/compose.yaml as Docker Compose reads it, without Docker: YAML with merge keys (`<<`), then
 * Compose's variable interpolation on every string value. Pure apart from reading the file; the
 * compose test checks the result, and the shared-Jupyter tests start the jupyter service from it.
 */
export const COMPOSE_FILE = path.resolve(import.meta.dirname, "../../deploy/compose.yaml");

export type ComposeService = {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[] | string;
  entrypoint?: string[] | string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  networks?: string[];
  volumes?: string[];
  ports?: string[];
  user?: string;
  healthcheck?: { test: string[] | string };
  security_opt?: string[];
  cap_drop?: string[];
  [key: string]: unknown;
};
export type ComposeFile = {
  services: Record<string, ComposeService>;
  networks?: Record<string, { internal?: boolean; ipam?: { config?: { subnet?: string }[] } } | null>;
  volumes?: Record<string, unknown>;
  [key: string]: unknown;
};

/**
 * Compose's interpolation of one value: `$$` is a `$`; `${NAME}` and `$NAME`; `${NAME:-default}`
 * (unset or empty) and `${NAME-default}` (unset); `${NAME:?message}` and `${NAME?message}`, which
 * refuse to start with that message; `${NAME:+other}` and `${NAME+other}`.
 */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, name?: string, colon?: string, op?: string, arg?: string, bare?: string) => {
    if (whole === "$$") return "$";
    if (bare) return vars[bare] ?? "";
    const v = vars[name!];
    const missing = colon ? v === undefined || v === "" : v === undefined;
    if (op === "-") return missing ? arg! : v!;
    if (op === "?") {
      if (missing) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      return v!;
    }
    if (op === "+") return missing ? "" : arg!;
    return v ?? "";
  });
}

function interpolateAll(node: unknown, vars: Record<string, string | undefined>): unknown {
  if (typeof node === "string") return interpolate(node, vars);
  if (Array.isArray(node)) return node.map((n) => interpolateAll(n, vars));
  if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateAll(v, vars)]));
  return node;
}

/** The file parsed (merge keys applied), before interpolation. */
export function rawCompose(text = readFileSync(COMPOSE_FILE, "utf8")): ComposeFile {
  return parse(text, { merge: true }) as ComposeFile;
}

/**
 * The file as Compose would run it with these variables set (deploy/.env or the shell's). An
 * environment entry without a value passes the variable on when it is set, and is dropped if not.
 */
export function loadCompose(vars: Record<string, string | undefined>, text?: string): ComposeFile {
  const file = interpolateAll(rawCompose(text), vars) as ComposeFile;
  for (const service of Object.values(file.services)) {
    if (!service.environment) continue;
    service.environment = Object.fromEntries(
      Object.entries(service.environment as Record<string, string | null>).flatMap(([k, v]) => (v !== null ? [[k, v]] : vars[k] !== undefined ? [[k, vars[k]!]] : [])),
    );
  }
  return file;
}

/** The four secrets compose.yaml requires, as a test sets them. */
export const TEST_SECRETS = {
  POSTGRES_PASSWORD: "0".repeat(48),
  REDIS_PASSWORD: "1".repeat(48),
  JUPYTER_TOKEN: "2".repeat(48),
  ARGUS_CLUSTER_SECRET: "3".repeat(64),
};
