/**
 * Attacks on the safety policy's view of the page: a hostile page rewrites every DOM API a
 * probe would ask (elementFromPoint, activeElement, input types, closest) to hide its password
 * field and its submit button, and puts a password field in a frame. The probe runs in an
 * isolated world, so the page's JavaScript cannot answer for it; a frame it cannot read counts
 * as a possible password field. Real Chromium, the lab on loopback.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserComputer } from "@/lib/computer/browser-computer";
import type { ComputerManager } from "@/lib/computer/computer-manager";
import { policyChecks } from "@/lib/computer/safety-policy";
import { startLab, type Lab } from "@/tests/helpers/browser-lab";
import { browserManager, centreOf } from "@/tests/helpers/computer";

let lab: Lab;
let manager: ComputerManager;
let computer: BrowserComputer;
let scratch: string;

beforeAll(async () => {
  lab = await startLab();
  scratch = mkdtempSync(path.join(os.tmpdir(), "argus-probe-"));
  manager = browserManager({ allow: lab.hostPort });
  computer = await manager.getComputer("probe", { downloadDir: scratch });
  await computer.goto(`${lab.origin}/agent-liar.html`);
});
afterAll(async () => {
  await manager?.closeAll();
  await lab?.close();
  rmSync(scratch, { recursive: true, force: true });
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
