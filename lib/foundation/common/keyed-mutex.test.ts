import { describe, expect, it } from "vitest";
import { KeyedMutex } from "./keyed-mutex";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("KeyedMutex", () => {
  it("serialises work on one key and lets other keys run alongside", async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    const job = (key: string, name: string, ms: number) =>
      m.run(key, async () => {
        log.push(`${name}+`);
        await tick(ms);
        log.push(`${name}-`);
        return name;
      });
    const results = await Promise.all([job("a", "a1", 20), job("a", "a2", 1), job("b", "b1", 5)]);
    expect(results).toEqual(["a1", "a2", "b1"]);
    expect(log.indexOf("a1-")).toBeLessThan(log.indexOf("a2+"));
    expect(log.indexOf("b1+")).toBeLessThan(log.indexOf("a1-"));
    await tick(1);
    expect(m.size).toBe(0);
  });

  it("keeps going after a failure", async () => {
    const m = new KeyedMutex();
    await expect(m.run("k", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(m.run("k", async () => 1)).resolves.toBe(1);
  });
});
