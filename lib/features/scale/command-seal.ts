import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * Run commands travel between instances over Redis pub/sub, where anyone who
 * can publish could otherwise post into any chat and start a model run. Each
 * message is sealed with an HMAC-SHA256 under ARGUS_CLUSTER_SECRET, over the
 * channel it is published on and its exact text, so a forged message is
 * refused, and a sealed one cannot be moved to another instance's channel.
 * Replays of a sealed command are refused by ReplayGuard.
 */
const SealedSchema = z.object({ v: z.literal(1), body: z.string().max(2_000_000), mac: z.string().regex(/^[0-9a-f]{64}$/) });

function mac(secret: string, channel: string, body: string): Buffer {
  return createHmac("sha256", secret).update(`argus-run-command-v1\n${channel}\n`).update(body).digest();
}

/** The message to publish on `channel`: `body` (JSON text) with its seal. */
export function seal(secret: string, channel: string, body: string): string {
  return JSON.stringify({ v: 1, body, mac: mac(secret, channel, body).toString("hex") });
}

/** The body of a message that arrived on `channel`, or why it is refused (never throws). */
export function unseal(secret: string, channel: string, raw: string): { ok: true; body: string } | { ok: false; reason: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  const sealed = SealedSchema.safeParse(parsed);
  if (!sealed.success) return { ok: false, reason: "unsigned" };
  const expected = mac(secret, channel, sealed.data.body);
  const given = Buffer.from(sealed.data.mac, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "bad signature" };
  return { ok: true, body: sealed.data.body };
}

/**
 * Remembers the id of every sealed command until it expires, so a captured
 * command published again is refused; after its expiry the bus drops it anyway.
 * A command claiming to expire further ahead than `maxAheadMs` is refused, so
 * the memory of ids stays bounded by what arrives in that window.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly maxAheadMs: number) {}

  admit(id: string, expiresAt: number, now = Date.now()): "fresh" | "replayed" | "expired" | "too_far_ahead" {
    for (const [seenId, until] of this.seen) if (until < now) this.seen.delete(seenId);
    if (expiresAt < now) return "expired";
    if (expiresAt > now + this.maxAheadMs) return "too_far_ahead";
    if (this.seen.has(id)) return "replayed";
    this.seen.set(id, expiresAt);
    return "fresh";
  }

  get size(): number {
    return this.seen.size;
  }
}
