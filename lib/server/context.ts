import { ArgusError } from "@/lib/foundation/errors";
import type { ArgusCore } from "./argus-core";

/**
 * server.ts builds one ArgusCore and route handlers (which Next bundles as a
 * separate module graph) reach the same instance through globalThis; importing
 * the core module from a route would create a second database, log and kernel
 * registry.
 */
declare global {
  // eslint-disable-next-line no-var
  var __argusCore: ArgusCore | undefined;
}

export function setArgus(core: ArgusCore | undefined): void {
  globalThis.__argusCore = core;
}

export function getArgus(): ArgusCore {
  const core = globalThis.__argusCore;
  if (!core) {
    throw new ArgusError("unavailable:api", "Argus is still starting (or was started without server.ts); try again shortly.");
  }
  return core;
}

/** Whether the browser cookie is Secure (and so `__Host-` prefixed): read per request, off until the core is set. */
export function secureCookiesOn(): boolean {
  return globalThis.__argusCore?.config.secureCookies ?? false;
}
