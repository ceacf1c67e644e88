/**
 * The Computer in real Chromium against the lab shop on loopback: what a
 * model's actions do to a real page, seen in the page and in the screenshot's
 * pixels.
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserComputer } from "@/lib/engines/computer/browser-computer";
import { performAction } from "@/lib/engines/computer/computer-actions";
import type { ComputerManager } from "@/lib/engines/computer/computer-manager";
import { tempDir } from "../helpers/temp-dir";
import { startLab, type Lab } from "../helpers/browser-lab";
import { browserManager, centreOf, textOf } from "../helpers/computer";
import { refusal } from "../helpers/media";

/** The RGB of one pixel of a PNG. */
async function pixel(png: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.round(y) * info.width + Math.round(x)) * 3;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

/** How many pixels are the scroll page's magenta marker. */
async function magentaPixels(png: Buffer): Promise<number> {
  const { data } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += 3) if (data[i]! > 240 && data[i + 1]! < 20 && data[i + 2]! > 240) count += 1;
  return count;
}

let lab: Lab;
let manager: ComputerManager;
let computer: BrowserComputer;
const downloads = tempDir("argus-computer-");

beforeAll(async () => {
  lab = await startLab();
  manager = browserManager({ allow: lab.hostPort });
  computer = await manager.getComputer("session-a", { downloadDir: downloads.dir });
});

afterAll(async () => {
  await manager?.closeAll();
  await lab?.close();
  downloads.cleanup();
});

describe("the screen", () => {
  it("is 1024×768 CSS pixels, and a screenshot is a PNG of exactly that at scale 1", async () => {
    expect(computer.environment).toBe("browser");
    expect(computer.dimensions).toEqual([1024, 768]);
    await computer.goto(lab.origin);
    const shot = await computer.screenshot();
    expect(shot.png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([shot.width, shot.height, shot.deviceScaleFactor]).toEqual([1024, 768, 1]);
    expect(await sharp(shot.png).metadata()).toMatchObject({ width: 1024, height: 768 });
    // The product photo is where the page lays it out.
    const mug = await centreOf(computer, "#red-mug img");
    expect(await pixel(shot.png, mug.x, mug.y)).toEqual([200, 30, 40]);
  });

  it("at device scale 2 the PNG doubles, and clicks at CSS coordinates still hit the element", async () => {
    const hiDpi = browserManager({ allow: lab.hostPort, deviceScaleFactor: 2 });
    try {
      const retina = await hiDpi.getComputer("retina", { downloadDir: downloads.dir });
      await retina.goto(lab.origin);
      const shot = await retina.screenshot();
      expect([shot.width, shot.height, shot.deviceScaleFactor]).toEqual([2048, 1536, 2]);
      const lamp = await centreOf(retina, "#green-lamp img");
      expect(await pixel(shot.png, lamp.x * shot.deviceScaleFactor, lamp.y * shot.deviceScaleFactor)).toEqual([40, 160, 60]);
      await retina.click(lamp.x, lamp.y);
      expect(await textOf(retina, "#clicked")).toBe("clicked green-lamp");
    } finally {
      await hiDpi.closeAll();
    }
  });
});

describe("mouse and keyboard", () => {
  it("clicks a link by its coordinates and waits for the page it opens", async () => {
    await computer.goto(lab.origin);
    const link = await centreOf(computer, "#to-form");
    await computer.click(link.x, link.y);
    expect(computer.currentUrl()).toBe(`${lab.origin}/form.html`);
    expect(await computer.activePage!.title()).toBe("Lab Shop: sign in");
  });

  it("holds CTRL+A as one chord: typing then replaces the field's text", async () => {
    await computer.goto(`${lab.origin}/form.html`);
    const name = await centreOf(computer, "#name");
    await computer.click(name.x, name.y);
    await computer.keypress(["CTRL", "A"]);
    await computer.type("Ada Lovelace");
    expect(await computer.activePage!.inputValue("#name")).toBe("Ada Lovelace");
    const password = await centreOf(computer, "#password");
    await computer.click(password.x, password.y);
    await computer.type("hunter2");
    expect(await computer.activePage!.inputValue("#password")).toBe("hunter2");
    await computer.keypress(["ENTER"]);
    expect(new URL(computer.currentUrl()).pathname).toBe("/signed-in");
    expect(await textOf(computer, "#who")).toBe("Ada Lovelace");
  });

  it("scrolls the box under the pointer, not the page, and the marker comes into view", async () => {
    await computer.goto(`${lab.origin}/scroll.html`);
    expect(await magentaPixels((await computer.screenshot()).png)).toBe(0);
    const box = await centreOf(computer, "#reviews");
    await computer.scroll(box.x, box.y, 0, 800);
    const page = computer.activePage!;
    expect(await page.evaluate(() => document.getElementById("reviews")!.scrollTop)).toBeGreaterThan(0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await textOf(computer, "#seen")).toBe("marker seen");
    expect(await magentaPixels((await computer.screenshot()).png)).toBeGreaterThan(1000);
  });

  it("drags along a path with the button held", async () => {
    await computer.goto(`${lab.origin}/drag.html`);
    const pad = (await computer.activePage!.locator("#pad").boundingBox())!;
    const at = (dx: number, dy: number) => ({ x: Math.round(pad.x) + dx, y: Math.round(pad.y) + dy });
    await computer.drag([at(50, 50), at(150, 120), at(300, 200)]);
    expect(await textOf(computer, "#trail")).toMatch(/^drag from 5\d,5\d to 30\d,20\d through \d+ points$/);
  });
});

describe("the Responses API's actions", () => {
  it("are carried out as a model sends them", async () => {
    await computer.goto(`${lab.origin}/form.html`);
    const name = await centreOf(computer, "#name");
    await performAction(computer, { type: "double_click", x: name.x, y: name.y });
    await performAction(computer, { type: "keypress", keys: ["ctrl+a"] });
    await performAction(computer, { type: "type", text: "Grace" });
    await performAction(computer, { type: "keypress", keys: ["ENTER"] });
    expect(await textOf(computer, "#who")).toBe("Grace");
    expect((await refusal(performAction(computer, { type: "click", x: 5000, y: 1 }))).message).toBe("x=5000 is outside the 1024×768 screen (x runs from 0 to 1023).");
  });
});

describe("tabs", () => {
  it("follows a link that opens a new tab, and returns to the opener when that tab closes", async () => {
    await computer.goto(lab.origin);
    expect(computer.pageCount).toBe(1);
    const help = await centreOf(computer, "#to-help");
    await computer.click(help.x, help.y);
    expect(computer.pageCount).toBe(2);
    expect(computer.currentUrl()).toBe(`${lab.origin}/help.html`);
    const close = await centreOf(computer, "#close");
    await computer.click(close.x, close.y);
    await expect.poll(() => computer.pageCount, { timeout: 15_000 }).toBe(1);
    expect(computer.currentUrl()).toBe(`${lab.origin}/`);
  });

  it("counts a click as done when the page closes itself on the press (before the release)", async () => {
    await computer.goto(lab.origin);
    const help = await centreOf(computer, "#to-help");
    await computer.click(help.x, help.y);
    expect(computer.pageCount).toBe(2);
    const close = await centreOf(computer, "#close-on-press");
    await computer.click(close.x, close.y);
    await expect.poll(() => computer.pageCount, { timeout: 15_000 }).toBe(1);
    expect(computer.currentUrl()).toBe(`${lab.origin}/`);
  });

  it("follows window.open too", async () => {
    await computer.goto(lab.origin);
    const button = await centreOf(computer, "#open-window");
    await computer.click(button.x, button.y);
    expect(computer.currentUrl()).toBe(`${lab.origin}/help.html?via=script`);
    await computer.activePage!.close();
    expect(computer.currentUrl()).toBe(`${lab.origin}/`);
  });

  it("goes back and forward through history", async () => {
    await computer.goto(lab.origin);
    await computer.goto(`${lab.origin}/form.html`);
    await computer.back();
    expect(computer.currentUrl()).toBe(`${lab.origin}/`);
    await computer.click(0, 0, "forward");
    expect(computer.currentUrl()).toBe(`${lab.origin}/form.html`);
  });
});

describe("mistakes are refused in words", () => {
  it("refuses coordinates off the screen instead of clicking somewhere", async () => {
    await computer.goto(lab.origin);
    const error = await refusal(computer.click(2000, 10));
    expect(error.code).toBe("bad_request:browser");
    expect(error.message).toBe("x=2000 is outside the 1024×768 screen (x runs from 0 to 1023).");
    expect(await textOf(computer, "#clicked")).toBe("nothing clicked yet");
    expect((await refusal(computer.scroll(10, -5, 0, 100))).message).toMatch(/^y=-5 is outside the 1024×768 screen/);
  });

  it("refuses an unknown key by name and presses nothing of the chord", async () => {
    await computer.goto(`${lab.origin}/form.html`);
    const page = computer.activePage!;
    await page.evaluate(() => {
      (window as unknown as { keys: string[] }).keys = [];
      window.addEventListener("keydown", (e) => (window as unknown as { keys: string[] }).keys.push(e.key));
    });
    const error = await refusal(computer.keypress(["CTRL", "HYPER"]));
    expect(error.code).toBe("bad_request:browser");
    expect(error.message).toMatch(/^"HYPER" is not a key the browser knows; nothing was pressed\./);
    expect(await page.evaluate(() => (window as unknown as { keys: string[] }).keys)).toEqual([]);
  });

  it("refuses arguments a model got wrong", async () => {
    expect((await refusal(computer.click(10, 10, "thumb" as never))).message).toMatch(/^button: /);
    expect((await refusal(computer.wait(60_000))).message).toMatch(/^ms: /);
    expect((await refusal(computer.drag([{ x: 1, y: 1 }]))).message).toMatch(/^path: /);
  });
});
