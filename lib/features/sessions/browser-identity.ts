import type { Db } from "@/lib/engines/db/database";
import { rebindBrowserSessions } from "@/lib/engines/db/sessions";
import { hashBrowserIdentity, newBrowserIdentity } from "@/lib/foundation/common/secrets";
import { createSession, type SessionDeps } from "./service";

/**
 * The browser cookie cannot prove where it came from: a page on another port of this host (or
 * a sibling subdomain, without `__Host-`) can give a browser any `argus_browser` value it likes,
 * even one the server issued to the attacker a minute ago, and then read every chat bound to it.
 * So a chat is never bound to a value the request brought. Every session creation mints a fresh
 * identity, binds the new chat to it, and moves the chats of whatever identities the request
 * presented onto it: the browser keeps its list (the new cookie replaces the old), and a
 * planted value is worthless from the first chat the person starts — it opens nothing of
 * theirs, then or later. (What a planted value held — the planter's own chats — moves to the
 * person's list; the planter keeps those chats' tokens, never the person's.)
 */
export async function createBrowserSession(
  deps: SessionDeps,
  presented: readonly string[],
): Promise<{ id: string; token: string; identity: string }> {
  const identity = newBrowserIdentity();
  const created = await createSession(deps, identity);
  await carryOver(deps.db, presented, identity);
  return { ...created, identity };
}

/** Moves the chats of the presented identities (at most 8 values: auth.ts readCookies) onto `identity`. */
export async function carryOver(db: Db, presented: readonly string[], identity: string): Promise<number> {
  const from = [...new Set(presented.map(hashBrowserIdentity))];
  return rebindBrowserSessions(db, from, hashBrowserIdentity(identity));
}
