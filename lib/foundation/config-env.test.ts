import { describe, expect, it } from "vitest";
import { EnvSchema, MODEL_ROLES, REQUIRED_ROLES } from "./config-env";

describe("EnvSchema", () => {
  it("fills every default from an empty environment", () => {
    const e = EnvSchema.parse({});
    expect(e).toMatchObject({ PORT: 3000, HOST: "127.0.0.1", ARGUS_DATA_DIR: "data", ARGUS_TOOL_PROTOCOL: "auto", ARGUS_BROWSER_API: "auto" });
    expect(e.ARGUS_MODEL).toBeUndefined();
  });

  it("coerces numbers from strings and refuses out-of-range ones", () => {
    expect(EnvSchema.parse({ ARGUS_KERNEL_POOL: "5" }).ARGUS_KERNEL_POOL).toBe(5);
    expect(EnvSchema.safeParse({ ARGUS_KERNEL_POOL: "33" }).success).toBe(false);
    expect(EnvSchema.safeParse({ ARGUS_MAX_UPLOAD_MB: "0" }).success).toBe(false);
  });

  it("reports a bad host list in its parser's words", () => {
    const r = EnvSchema.safeParse({ ARGUS_BROWSER_BLOCK: "http://x/y" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["ARGUS_BROWSER_BLOCK"]);
    expect(r.error?.issues[0]?.message.length).toBeGreaterThan(0);
  });

  it("lists the roles in lower case, browser optional", () => {
    expect(MODEL_ROLES).toEqual(["conversation", "planner", "coder", "vqa", "judge", "browser"]);
    expect(REQUIRED_ROLES).not.toContain("browser");
  });
});
