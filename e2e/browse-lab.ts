/**
 * What the browsing specs share: their own Argus with a browser model and the lab allowed, a
 * browse scenario whose {{placeholders}} are filled with the lab's address and where its password
 * field is, and that field's centre measured in the same Chromium at the browser's screen size.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import type { Lab } from "../tests/helpers/browser-lab";
import { startOwnArgus } from "./own-server";

const MODEL_BASE = `http://127.0.0.1:${process.env.ARGUS_E2E_MODEL_PORT ?? 4311}`;
/** Argus's browser screen (lib/engines/computer/computer-manager.ts); the model sees it at this size too. */
export const SCREEN = { width: 1024, height: 768 };

/** Argus as the config starts the shared one (e2e/own-server.ts), plus the browser's settings. */
export function startBrowsingArgus(lab: Lab) {
  return startOwnArgus({
    // No planner in these stories: no kernels needed.
    ARGUS_JUPYTER: "off",
    ARGUS_MODEL_BROWSER: "browser",
    ARGUS_CHROMIUM: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    ARGUS_BROWSER_ALLOW: lab.hostPort,
    // A HiDPI screen: screenshots have twice the viewport's pixels, and the pointer marker
    // must still land where the click was (it is placed by the viewport, not the image).
    ARGUS_BROWSER_DEVICE_SCALE: "2",
  });
}

/** Replaces every "{{NAME}}" string in the scenario (whole values become numbers when given numbers). */
function fill(value: unknown, vars: Record<string, string | number>): unknown {
  if (typeof value === "string") {
    const whole = /^\{\{(\w+)\}\}$/.exec(value);
    if (whole && whole[1]! in vars) return vars[whole[1]!];
    return value.replace(/\{\{(\w+)\}\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  return value;
}

/** Loads e2e/scenarios/<name> into the scripted model with its placeholders filled. */
export async function useBrowseScenario(name: string, vars: Record<string, string | number>): Promise<void> {
  const scenario = fill(JSON.parse(readFileSync(path.join("e2e", "scenarios", name), "utf8")), vars);
  const res = await fetch(`${MODEL_BASE}/__scenario`, { method: "POST", body: JSON.stringify(scenario) });
  if (!res.ok) throw new Error(`could not load the browse scenario ${name}: ${await res.text()}`);
}

/** The centre of the lab's password field on Argus's screen, measured in the same Chromium at the same size. */
export async function passwordFieldCentre(page: Page, lab: Lab): Promise<{ x: number; y: number }> {
  await page.setViewportSize(SCREEN);
  await page.goto(`${lab.origin}/form.html`);
  const box = (await page.locator("#password").boundingBox())!;
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height / 2) };
}
