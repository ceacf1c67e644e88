/**
 * Readers for the browsing agent's chat tags (lib/protocol/browser-wire.ts
 * describes them): `<browser_action>`, `<browser_observation>` and the safety
 * card's payload. The client does not ship zod, so these are hand-written
 * checks that accept exactly what the protocol's schemas accept (a unit test
 * holds them to it). Total: malformed input yields null, never an exception.
 */
import type { BrowserActionWire, BrowserObservationWire, SafetyCheck, SafetyPayload } from "@/lib/protocol/browser-wire";
import { between, isRecord, parseJson } from "./tag-reader";

export type { BrowserActionWire, BrowserObservationWire, SafetyCheck, SafetyPayload };

type Point = { x: number; y: number };

const TOOLS = new Set(["computer", "goto", "back", "save_image", "done"]);

/** zod's z.number(): a finite number (NaN and ±Infinity are refused). */
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === "string";

/** `{x, y}` or null; unknown keys are dropped, as zod's objects do. Undefined when invalid. */
function readPointOrNull(v: unknown): Point | null | undefined {
  if (v === null) return null;
  if (!isRecord(v) || !isNumber(v.x) || !isNumber(v.y)) return undefined;
  return { x: v.x, y: v.y };
}

function readViewport(v: unknown): [number, number] | undefined {
  if (!Array.isArray(v) || v.length !== 2 || !isNumber(v[0]) || !isNumber(v[1])) return undefined;
  return [v[0], v[1]];
}

/** BrowserActionWireSchema's check. */
export function readBrowserAction(v: unknown): BrowserActionWire | null {
  if (!isRecord(v) || !isString(v.tool) || !TOOLS.has(v.tool) || !isString(v.summary)) return null;
  const pointer = readPointOrNull(v.pointer);
  if (pointer === undefined) return null;
  return { tool: v.tool as BrowserActionWire["tool"], summary: v.summary, pointer };
}

/** BrowserObservationWireSchema's check. */
export function readBrowserObservation(v: unknown): BrowserObservationWire | null {
  if (!isRecord(v) || !isString(v.url) || !isString(v.title) || !isString(v.action) || !isString(v.error)) return null;
  const pointer = readPointOrNull(v.pointer);
  const viewport = readViewport(v.viewport);
  if (pointer === undefined || viewport === undefined) return null;
  if (!Number.isSafeInteger(v.tabs) || (v.tabs as number) < 0) return null;
  return { url: v.url, title: v.title, action: v.action, error: v.error, pointer, viewport, tabs: v.tabs as number };
}

function readCheck(v: unknown): SafetyCheck | null {
  if (!isRecord(v) || !isString(v.code) || !isString(v.message)) return null;
  if (v.source !== "policy" && v.source !== "model") return null;
  return { code: v.code, message: v.message, source: v.source };
}

/** SafetyPayloadSchema's check. */
export function readSafetyPayload(v: unknown): SafetyPayload | null {
  if (!isRecord(v) || !isString(v.action) || !isString(v.url) || !Array.isArray(v.checks) || v.checks.length === 0) return null;
  const checks = v.checks.map(readCheck);
  if (checks.some((c) => c === null)) return null;
  if (v.screenshot !== null && !isString(v.screenshot)) return null;
  const pointer = readPointOrNull(v.pointer);
  const viewport = readViewport(v.viewport);
  if (pointer === undefined || viewport === undefined) return null;
  return { action: v.action, url: v.url, checks: checks as SafetyCheck[], screenshot: v.screenshot, pointer, viewport };
}

export interface ParsedBrowserStep {
  thinking: string;
  /** Null when the tag is missing or its JSON does not match the wire format. */
  action: BrowserActionWire | null;
}

/** A `browser` message: `<thinking>…</thinking>` (optional) then `<browser_action>{…}</browser_action>`. */
export function parseBrowserStep(content: string): ParsedBrowserStep {
  const actionStart = content.indexOf("<browser_action>");
  let thinking = "";
  const tStart = content.indexOf("<thinking>");
  if (tStart !== -1 && (actionStart === -1 || tStart < actionStart)) {
    const innerStart = tStart + "<thinking>".length;
    const tEnd = content.indexOf("</thinking>", innerStart);
    const end = tEnd === -1 || (actionStart !== -1 && tEnd > actionStart) ? (actionStart === -1 ? content.length : actionStart) : tEnd;
    thinking = content.slice(innerStart, end).trim();
  }
  const tag = actionStart === -1 ? null : between(content, "browser_action", actionStart);
  return { thinking, action: tag ? readBrowserAction(parseJson(tag.inner)) : null };
}

/** Whether an observation message is a browsing step's (it starts with the tag). */
export function isBrowserObservation(content: string): boolean {
  return content.trimStart().startsWith("<browser_observation>");
}

const CLOSE_OBS = "</browser_observation>";

export interface ParsedBrowserObservation {
  wire: BrowserObservationWire;
  /** The plain text after the tag (what the model was told). */
  text: string;
}

/** An `observation` message from the browser; null when it is not one or its JSON is malformed. */
export function parseBrowserObservation(content: string): ParsedBrowserObservation | null {
  if (!isBrowserObservation(content)) return null;
  const open = "<browser_observation>";
  const start = content.indexOf(open) + open.length;
  // A page title may contain the close tag, and so may the text after it:
  // the tag ends at the first close tag whose preceding JSON parses.
  for (let close = content.indexOf(CLOSE_OBS, start); close !== -1; close = content.indexOf(CLOSE_OBS, close + 1)) {
    const json = parseJson(content.slice(start, close));
    if (json === undefined) continue;
    const wire = readBrowserObservation(json);
    return wire ? { wire, text: content.slice(close + CLOSE_OBS.length).trim() } : null;
  }
  return null;
}
