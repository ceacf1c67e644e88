/**
 * A page that tries to push its own bytes into Argus: a title of five million characters
 * (with layout controls in it), an address of a million and a half, and save_image answered
 * by the page's own JavaScript (`fetch` and `btoa` replaced, forty megabytes handed back),
 * or aimed at an element of 64 megapixels.
 * What reaches Argus is bounded and comes from the browser, not the page's script. Real
 * Chromium, the lab on loopback.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserComputer } from "@/lib/engines/computer/browser-computer";
import type { Lab } from "@/tests/helpers/browser-lab";
import { openLabBrowser, type LabBrowser } from "@/tests/helpers/lab-browser";

let lab: Lab;
let computer: BrowserComputer;
let world: LabBrowser | undefined;

beforeAll(async () => {
  world = await openLabBrowser("greedy", { page: "/agent-greedy.html" });
  ({ lab, computer } = world);
});
afterAll(async () => {
  await world?.close();
});

describe("a page that pushes its own bytes", () => {
  it("has its title cut short, without line breaks or layout controls", async () => {
    const title = await computer.title();
    expect(title.startsWith("Greedy")).toBe(true);
    expect(title.length).toBeLessThanOrEqual(301);
    expect(title).not.toMatch(/[\u2028\u202e\n]/);
  });

  it("has its address cut short", async () => {
    await computer.activePage!.evaluate(() => history.replaceState(null, "", `/agent-greedy.html?${"q".repeat(1_500_000)}`));
    expect(computer.currentUrl().length).toBeLessThanOrEqual(2049);
    expect(computer.currentUrl().startsWith(`${lab.origin}/agent-greedy.html?q`)).toBe(true);
  });

  it("saves an <img> from its own file, whatever the page's fetch and btoa say", async () => {
    const png = await computer.capture({ selector: "#photo" });
    expect(await sharp(png).metadata()).toMatchObject({ width: 160, height: 120 });
  });

  it("will not screenshot an element of 64 megapixels whole", async () => {
    await expect(computer.capture({ selector: "#huge" })).rejects.toMatchObject({ type: "bad_request", message: expect.stringMatching(/too big/) });
  });
});
