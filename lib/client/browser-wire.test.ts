import { describe, expect, it } from "vitest";
import { BrowserActionWireSchema, BrowserObservationWireSchema, SafetyPayloadSchema } from "@/lib/protocol/browser-wire";
import {
  isBrowserObservation,
  parseBrowserObservation,
  parseBrowserStep,
  readBrowserAction,
  readBrowserObservation,
  readSafetyPayload,
} from "./browser-wire";

// The exact forms lib/runtime/projection.ts writes.
const action = { tool: "computer", summary: "click(120, 45)", pointer: { x: 120, y: 45 } };
const obs = { url: "http://127.0.0.1:8000/", title: "Shop", action: "click(120, 45)", error: "", pointer: { x: 120, y: 45 }, viewport: [1024, 768], tabs: 1 };
const safety = {
  action: "type(hunter2)",
  url: "http://127.0.0.1:8000/form.html",
  checks: [{ code: "password_field", message: "Typing into a password field.", source: "policy" }],
  screenshot: "/api/files/s1",
  pointer: { x: 300, y: 200 },
  viewport: [1024, 768],
};

describe("parseBrowserStep", () => {
  it("reads the thinking and the action", () => {
    const p = parseBrowserStep(`<thinking>The Buy button.</thinking>\n<browser_action>${JSON.stringify(action)}</browser_action>`);
    expect(p).toEqual({ thinking: "The Buy button.", action });
  });

  it("reads an action without thinking, and keeps a summary that mentions the tag", () => {
    const done = { tool: "done", summary: "It says </browser_action> on the page", pointer: null };
    expect(parseBrowserStep(`<browser_action>${JSON.stringify(done)}</browser_action>`)).toEqual({ thinking: "", action: done });
  });

  it("yields a null action for malformed or truncated input, never throws", () => {
    expect(parseBrowserStep("<browser_action>{not json</browser_action>").action).toBeNull();
    expect(parseBrowserStep(`<browser_action>${JSON.stringify({ ...action, tool: "hack" })}</browser_action>`).action).toBeNull();
    expect(parseBrowserStep("<thinking>cut off").thinking).toBe("cut off");
    expect(parseBrowserStep("")).toEqual({ thinking: "", action: null });
  });
});

describe("parseBrowserObservation", () => {
  it("reads the tag and the text after it", () => {
    const p = parseBrowserObservation(`<browser_observation>${JSON.stringify(obs)}</browser_observation>\nThe page shows a shop.`);
    expect(p).toEqual({ wire: obs, text: "The page shows a shop." });
  });

  it("survives a page title that contains the close tag", () => {
    const tricky = { ...obs, title: "a </browser_observation> b" };
    const p = parseBrowserObservation(`<browser_observation>${JSON.stringify(tricky)}</browser_observation>\ntext`);
    expect(p?.wire.title).toBe("a </browser_observation> b");
    expect(p?.text).toBe("text");
  });

  it("is null for other observations and malformed tags", () => {
    expect(isBrowserObservation("----- stdout -----\n1")).toBe(false);
    expect(parseBrowserObservation("----- stdout -----\n1")).toBeNull();
    expect(parseBrowserObservation("<browser_observation>{}</browser_observation>")).toBeNull();
    expect(parseBrowserObservation("<browser_observation>{\"url\":")).toBeNull();
  });
});

/**
 * The client's hand-written checks against the protocol's zod schemas: for
 * every sample, both accept or both refuse (and accepted values read alike).
 */
describe("client readers agree with the zod schemas", () => {
  const cases: [string, (v: unknown) => unknown, { safeParse(v: unknown): { success: boolean; data?: unknown } }, unknown[]][] = [
    [
      "action",
      readBrowserAction,
      BrowserActionWireSchema,
      [
        action,
        { ...action, pointer: null },
        { ...action, tool: "done" },
        { ...action, extra: 1 },
        ...["goto", "back", "save_image"].map((tool) => ({ ...action, tool })),
        { ...action, tool: "Computer" },
        { ...action, summary: 3 },
        { tool: "computer", summary: "x" },
        { ...action, pointer: { x: 1 } },
        { ...action, pointer: { x: "1", y: 2 } },
        { ...action, pointer: { x: Infinity, y: 2 } },
        { ...action, pointer: { x: NaN, y: 2 } },
        { ...action, pointer: [1, 2] },
        null,
        [],
        "computer",
      ],
    ],
    [
      "observation",
      readBrowserObservation,
      BrowserObservationWireSchema,
      [
        obs,
        { ...obs, pointer: null, tabs: 0 },
        { ...obs, error: "Refused by the person." },
        { ...obs, extra: true },
        { ...obs, tabs: 1.5 },
        { ...obs, tabs: -1 },
        { ...obs, tabs: 2 ** 60 },
        { ...obs, tabs: "1" },
        { ...obs, viewport: [1024] },
        { ...obs, viewport: [1024, 768, 1] },
        { ...obs, viewport: [1024, "768"] },
        { ...obs, viewport: [-5, 0] },
        { ...obs, viewport: { 0: 1, 1: 2 } },
        { ...obs, url: null },
        { ...obs, title: undefined },
        Object.fromEntries(Object.entries(obs).filter(([k]) => k !== "pointer")),
        {},
      ],
    ],
    [
      "safety payload",
      readSafetyPayload,
      SafetyPayloadSchema,
      [
        safety,
        { ...safety, screenshot: null, pointer: null },
        { ...safety, checks: [...safety.checks, { code: "malware", message: "The model is unsure.", source: "model", extra: 1 }] },
        { ...safety, checks: [] },
        { ...safety, checks: [{ code: "x", message: "y", source: "user" }] },
        { ...safety, checks: [{ code: "x", source: "policy" }] },
        { ...safety, checks: "password_field" },
        { ...safety, screenshot: 7 },
        { ...safety, screenshot: undefined },
        { ...safety, viewport: [1024, null] },
        { ...safety, action: null },
        { ...safety, pointer: { x: 1, y: null } },
        42,
      ],
    ],
  ];

  for (const [name, read, schema, samples] of cases) {
    it(`${name}: accepts exactly what the schema accepts`, () => {
      for (const sample of samples) {
        const z = schema.safeParse(sample);
        const mine = read(sample);
        expect({ sample, accepted: mine !== null }).toEqual({ sample, accepted: z.success });
        if (z.success) expect(mine).toEqual(z.data);
      }
    });
  }
});
