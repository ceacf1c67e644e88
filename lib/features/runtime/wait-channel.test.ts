import { describe, expect, it } from "vitest";
import type { WaitWire } from "@/lib/foundation/protocol/waits";
import { WaitChannel } from "./wait-channel";

const wire = (over: Partial<WaitWire> = {}): WaitWire => ({ id: "w1", what: "notebook_start", ahead: null, waitedMs: 0, ended: false, ...over });

describe("WaitChannel", () => {
  it("keeps a session's wait going on, with how long so far, for a page that connects late", () => {
    let t = 1000;
    const waits = new WaitChannel(() => t);
    waits.publish("s1", wire());
    t = 4500;
    expect(waits.current("s1")).toEqual(wire({ waitedMs: 3500 }));
    expect(waits.current("s2")).toBeNull();
    waits.publish("s1", wire({ id: "other", ended: true }));
    expect(waits.current("s1")).not.toBeNull();
    waits.publish("s1", wire({ ended: true, waitedMs: 3600 }));
    expect(waits.current("s1")).toBeNull();
  });

  it("hands valid waits to subscribers and drops malformed ones", () => {
    const waits = new WaitChannel();
    const heard: string[] = [];
    waits.subscribe((s, w) => heard.push(`${s}:${w.what}`));
    waits.publish("s1", wire());
    waits.publish("s1", { ...wire(), what: "lunch" } as unknown as WaitWire);
    expect(heard).toEqual(["s1:notebook_start"]);
  });
});
