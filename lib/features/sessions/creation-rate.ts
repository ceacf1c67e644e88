import { ArgusError } from "@/lib/foundation/errors";
import { clientKey } from "@/lib/foundation/common/client-key";
import { TokenBuckets } from "@/lib/foundation/common/token-buckets";

/**
 * Anyone who can reach Argus may create sessions without an account, so each
 * client gets a budget: by network address (which a client cannot choose) and
 * by browser cookie (which tells apart people behind one address only in that
 * they can't spend each other's). Both must have a token left.
 */
export class SessionCreationLimit {
  private readonly buckets: TokenBuckets;

  constructor(perMinute: number, private readonly now: () => number = Date.now) {
    this.buckets = new TokenBuckets({ perMinute, burst: perMinute });
  }

  /** Throws a readable 429 when this client has created too many sessions lately. */
  admit(client: { address: string; browser: string | null }): void {
    const keys = [`addr:${clientKey(client.address)}`];
    if (client.browser) keys.push(`browser:${client.browser}`);
    const taken = this.buckets.take(keys, this.now());
    if (taken.ok) return;
    const seconds = Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
    throw new ArgusError(
      "rate_limited:session",
      `You have started a lot of new chats in a short time. Try again in ${seconds === 1 ? "a second" : `${seconds} seconds`}, or keep using one you already have.`,
      { retryAfterSeconds: seconds },
    );
  }
}
