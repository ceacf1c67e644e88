/**
 * A page that opens tabs without end: one every 20 ms from a timer, and forty from one click.
 * Each is a renderer; unchecked, they eat the machine's memory. A page may open a tab only
 * when the agent's click asks for one (Chromium's popup blocker, which Playwright turns off
 * by default), and a session's browser keeps at most a few tabs. Real Chromium, the lab on
 * loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserComputer } from "@/lib/engines/computer/browser-computer";
import type { Lab } from "@/tests/helpers/browser-lab";
import { openLabBrowser, type LabBrowser } from "@/tests/helpers/lab-browser";
import { centreOf } from "@/tests/helpers/computer";

let lab: Lab;
let computer: BrowserComputer;
let world: LabBrowser | undefined;

beforeAll(async () => {
  world = await openLabBrowser("tabs");
  ({ lab, computer } = world);
});
afterAll(async () => {
  await world?.close();
});

const pages = () => computer.activePage!.context().pages().length;

describe("a page that floods the browser with tabs", () => {
  it("opens none by itself (at most the one Chromium allows a page it was sent to)", async () => {
    await computer.goto(`${lab.origin}/agent-tabs.html?flood`);
    await computer.wait(1000);
    expect(pages()).toBeLessThanOrEqual(2);
    for (const page of computer.activePage!.context().pages()) await page.close();
    await computer.goto(`${lab.origin}/agent-tabs.html`);
    expect(pages()).toBe(1);
  });

  it("opens the one a click asks for", async () => {
    const one = await centreOf(computer, "#one");
    await computer.click(one.x, one.y);
    expect(computer.currentUrl()).toContain("/help.html?via=click");
    expect(pages()).toBe(2);
    await computer.activePage!.close();
  });

  it("opens at most a few from one click", async () => {
    const many = await centreOf(computer, "#many");
    await computer.click(many.x, many.y);
    await computer.wait(500);
    expect(pages()).toBeLessThanOrEqual(3);
  });

  it("keeps at most ten tabs however many clicks ask", async () => {
    const home = computer.activePage!.context().pages().find((p) => p.url().includes("agent-tabs"))!;
    for (let i = 0; i < 12; i += 1) await home.locator("#one").click();
    await computer.wait(500);
    expect(pages()).toBeLessThanOrEqual(10);
  });
});
