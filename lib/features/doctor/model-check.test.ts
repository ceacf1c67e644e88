import { describe, expect, it } from "vitest";
import { isArgusError } from "@/lib/foundation/errors";
import { loadConfig } from "@/lib/foundation/config";
import { ModelCheck } from "./model-check";

describe("ModelCheck", () => {
  it("refuses a second check within 20 s with a Retry-After, then allows one", async () => {
    let now = 1_000_000;
    // Port 9 (discard) on loopback: refused at once, so the check itself is quick.
    const check = new ModelCheck(loadConfig({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", ARGUS_MODEL: "m" }, "/tmp").model, () => now);
    const first = await check.run();
    expect(first.ok).toBe(false);
    now += 5_000;
    const refused = await check.run().catch((e: unknown) => e);
    expect(isArgusError(refused) && refused.code).toBe("rate_limited:model");
    expect(isArgusError(refused) && refused.retryAfterSeconds).toBe(15);
    now += 15_000;
    // ARGUS_MODEL names every role, the optional browser role too.
    expect((await check.run()).rows).toHaveLength(6);
  });

  it("a second request while a check runs shares its report", async () => {
    const check = new ModelCheck(loadConfig({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", ARGUS_MODEL: "m" }, "/tmp").model);
    const [a, b] = await Promise.all([check.run(), check.run()]);
    expect(b).toBe(a);
  });
});
