/**
 * Attacks on the safety policy's view of the page: a hostile page rewrites every DOM API a
 * probe would ask (elementFromPoint, activeElement, input types, closest) to hide its password
 * field and its submit button, and puts a password field in a frame. The probe runs in an
 * isolated world, so the page's JavaScript cannot answer for it; a frame it cannot read counts
 * as a possible password field. Real Chromium, the lab on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserComputer } from "@/lib/engines/computer/browser-computer";
import { policyChecks } from "@/lib/engines/computer/safety-policy";
import type { Lab } from "@/tests/helpers/browser-lab";
import { openLabBrowser, type LabBrowser } from "@/tests/helpers/lab-browser";
import { centreOf } from "@/tests/helpers/computer";

let lab: Lab;
let computer: BrowserComputer;
let world: LabBrowser | undefined;

beforeAll(async () => {
  world = await openLabBrowser("probe", { page: "/agent-liar.html" });
  ({ lab, computer } = world);
});
afterAll(async () => {
  await world?.close();
});

describe("the safety probe on a page that lies", () => {
  it("still sees the password field that has focus", async () => {
    const field = await centreOf(computer, "#password");
    await computer.click(field.x, field.y);
    const probe = await computer.probe(null);
    expect(probe?.focus).toMatchObject({ tag: "input", type: "password", password: true });
    expect(policyChecks({ kind: "type" }, probe, lab.origin).map((c) => c.code)).toEqual(["password_field"]);
  });

  it("still sees the submit button under the pointer", async () => {
    const button = await centreOf(computer, "#submit");
    const probe = await computer.probe(button);
    expect(probe?.at).toMatchObject({ tag: "button", submits: true, inForm: true });
    expect(policyChecks({ kind: "click", ...button }, probe, lab.origin).map((c) => c.code)).toEqual(["form_submit"]);
  });

  it("asks before typing into a frame it cannot read", async () => {
    const frame = await centreOf(computer, "#frame");
    await computer.click(frame.x - 150, frame.y - 90);
    const probe = await computer.probe(null);
    expect(probe?.focus).toMatchObject({ tag: "iframe", frame: true });
    expect(policyChecks({ kind: "type" }, probe, lab.origin).map((c) => c.code)).toEqual(["unknown_field"]);
  });
});
