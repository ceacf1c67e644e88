import { describe, expect, it } from "vitest";
import { LeaseUpkeep } from "./lease-upkeep";

/** A promise with its resolve, to hold a step until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("LeaseUpkeep", () => {
  it("runs steps one at a time, and skips a step that is already waiting", async () => {
    const order: string[] = [];
    const held = gate();
    const firstStarted = gate();
    let renewals = 0;
    const upkeep = new LeaseUpkeep(
      10_000,
      {
        renew: async () => {
          renewals++;
          order.push(`renew ${renewals} start`);
          if (renewals === 1) {
            firstStarted.open();
            await held.promise;
          }
          order.push(`renew ${renewals} end`);
        },
        sweep: async () => {
          order.push("sweep");
        },
      },
      () => undefined,
    );
    const first = upkeep.run("renew");
    upkeep.run("renew"); // the first has not begun: still waiting, so this one is the same
    await firstStarted.promise;
    expect(order).toEqual(["renew 1 start"]);
    upkeep.run("sweep");
    upkeep.run("renew");
    upkeep.run("renew"); // the second renewal is still waiting: this one is the same
    held.open();
    await first;
    await upkeep.close();
    expect(order).toEqual(["renew 1 start", "renew 1 end", "sweep", "renew 2 start", "renew 2 end"]);
  });

  it("reports a failing step and keeps going", async () => {
    const failures: string[] = [];
    let sweeps = 0;
    const upkeep = new LeaseUpkeep(
      10_000,
      {
        renew: async () => {
          throw new Error("database down");
        },
        sweep: async () => {
          sweeps++;
        },
      },
      (step, error) => failures.push(`${step}: ${String(error)}`),
    );
    await upkeep.run("renew");
    await upkeep.run("sweep");
    expect(failures).toEqual(["renew: Error: database down"]);
    expect(sweeps).toBe(1);
  });

  it("renews and sweeps on its own timers once started, until closed", async () => {
    const seen = new Set<string>();
    let bothSeen!: () => void;
    const both = new Promise<void>((resolve) => (bothSeen = resolve));
    const note = (step: string) => async () => {
      seen.add(step);
      if (seen.size === 2) bothSeen();
    };
    // The shortest lease the timings allow (250 ms ticks).
    const upkeep = new LeaseUpkeep(300, { renew: note("renew"), sweep: note("sweep") }, () => undefined);
    upkeep.start();
    await both;
    await upkeep.close();
    expect([...seen].sort()).toEqual(["renew", "sweep"]);
  });
});
