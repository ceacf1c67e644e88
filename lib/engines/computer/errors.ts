/**
 * The browser's typed errors (lib/foundation/errors.ts, surface "browser"). Every message
 * is a sentence the person and the model can act on: what was refused and why.
 */
import { ArgusError } from "@/lib/foundation/errors";

/** A bad action: off-screen coordinates, an unknown key, arguments that fail validation. */
export const badAction = (message: string, field?: string) => new ArgusError("bad_request:browser", message, field === undefined ? undefined : { field });

/** Somewhere the browser may not go (ARGUS_BROWSER_BLOCK, the address rule, a scheme). */
export const refused = (message: string) => new ArgusError("forbidden:browser", message);

/** The browser could not do it: Chromium missing or crashed, a page that would not load. */
export const browserUnavailable = (message: string, cause?: unknown) => new ArgusError("unavailable:browser", message, { cause });
