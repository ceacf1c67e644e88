import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";

const MODEL_PORT = Number(process.env.ARGUS_E2E_MODEL_PORT ?? 4311);
const modelBase = `http://127.0.0.1:${MODEL_PORT}`;
/**
 * Where this Playwright process writes screenshots and fixture files. `npm test` runs two
 * Playwright processes at once (playwright.config.ts): each gets its own, so neither rewrites a
 * file the other's browser is reading.
 */
export const ARTIFACTS = process.env.ARGUS_E2E_ARTIFACTS ?? "test-results/playwright-artifacts";
export const FIXTURES = path.resolve("test-results", process.env.ARGUS_E2E_FIXTURES ?? "fixtures");

/** Loads a scenario from e2e/scenarios into the running scripted model. */
export async function useScenario(name: string, options: { dialect?: string } = {}): Promise<void> {
  const file = readFileSync(path.join("e2e", "scenarios", name), "utf8");
  // The scenario's own `dialect` field picks how the scripted model speaks (openai, ollama, …).
  const body = options.dialect === undefined ? file : JSON.stringify({ ...(JSON.parse(file) as object), dialect: options.dialect });
  const res = await fetch(`${modelBase}/__scenario`, { method: "POST", body });
  if (!res.ok) throw new Error(`could not load scenario ${name}: ${await res.text()}`);
}

/** Requests the scripted model received (for asserting what reached the model). */
export async function modelRequests(): Promise<{ model: string; images: number; status: number; tools?: string[] }[]> {
  return (await (await fetch(`${modelBase}/__requests`)).json()) as { model: string; images: number; status: number; tools?: string[] }[];
}

/** scikit-image's coins photo, written once as a PNG file for the file chooser. */
export function coinsFile(): string {
  const file = path.join(FIXTURES, "coins.png");
  mkdirSync(path.dirname(file), { recursive: true });
  const run = spawnSync("/usr/bin/python3", ["-c", `from PIL import Image; from skimage import data; Image.fromarray(data.coins()).save(${JSON.stringify(file)})`]);
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return file;
}

export function textFile(name: string, content: string): string {
  const file = path.join(FIXTURES, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Sends a message through the composer as a person would. */
export async function ask(page: Page, text: string): Promise<void> {
  const box = page.getByTestId("composer-text");
  await box.fill(text);
  await box.press("Enter");
}

/**
 * The coins question of the acceptance scenarios: the photo attached, asked, and answered (its
 * function kept). The answer comes after a cold kernel start, so it is bounded by the test's own
 * budget, not a shorter one of its own.
 */
export async function askCoinCount(page: Page, scenario: string): Promise<void> {
  await useScenario(scenario);
  await page.goto("/");
  await page.getByTestId("file-input").setInputFiles(coinsFile());
  await expect(page.getByTestId("attachment-chip")).toContainText("Ready");
  await ask(page, "How many coins are on the table?");
  await expect(page.getByTestId("message-conversation").last()).toContainText("24 coins", { timeout: 0 });
}

/** Every seq shown once, in order: no lost or doubled messages. */
export async function expectCleanTranscript(page: Page): Promise<void> {
  const seqs = await page.locator("[data-seq]").evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-seq"))));
  expect(seqs.length).toBeGreaterThan(0);
  expect(new Set(seqs).size).toBe(seqs.length);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
}

/**
 * Opens a planner/coder step if it is collapsed. Steps that arrive with the
 * history (e.g. in one sync batch) start collapsed and render their output
 * only once opened, as a person would open them to read it.
 */
export async function openStep(step: Locator): Promise<void> {
  await expect(step).toBeVisible();
  const toggle = step.locator("button[aria-expanded]").first();
  if ((await toggle.getAttribute("aria-expanded")) === "false") await toggle.click();
}
