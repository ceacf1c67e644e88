/**
 * The Computer the browsing agent drives: the CUA sample's surface
 * (reference/peers.md §A.2), in CSS pixels of a fixed-size screen, plus what
 * Argus adds around it: refusals and downloads the agent reports to the model.
 */
import type { RefusalReason } from "../../foundation/net/url-policy";

/** `wheel` is the Responses API's name for the middle button. back/forward navigate. */
export const MOUSE_BUTTONS = ["left", "right", "middle", "wheel", "back", "forward"] as const;
export type MouseButton = (typeof MOUSE_BUTTONS)[number];

export interface Point {
  x: number;
  y: number;
}

export interface Screenshot {
  /** PNG bytes of the visible page, `deviceScaleFactor` device pixels per CSS pixel. */
  png: Buffer;
  /** Size of the PNG in device pixels: `dimensions` × `deviceScaleFactor`. */
  width: number;
  height: number;
  /** Divide a point on the PNG by this to get the CSS coordinates the actions take. */
  deviceScaleFactor: number;
}

/** Something the browser was kept from loading, for the model's next observation. */
export interface BrowserRefusal {
  /** The URL, or `host:port` when the refusal came from a tunnel (https, WebSocket). */
  target: string;
  reason: RefusalReason;
  message: string;
  /** A page navigation (true), a resource (false), or unknown (refused by the proxy). */
  topLevel: boolean | null;
}

export interface DownloadRecord {
  url: string;
  /** The name the site suggested, as given (hostile text: show it quoted). */
  suggestedName: string;
  status: "saved" | "too_large" | "failed";
  /** The safe name it was saved under in the download directory. */
  name: string | null;
  path: string | null;
  bytes: number;
  /** One sentence for the model and the person. */
  message: string;
}

export interface Computer {
  readonly environment: "browser";
  /** [width, height] of the screen in CSS pixels: the space every coordinate is in. */
  readonly dimensions: readonly [number, number];
  screenshot(): Promise<Screenshot>;
  click(x: number, y: number, button?: MouseButton): Promise<void>;
  doubleClick(x: number, y: number): Promise<void>;
  /** Scrolls what is under (x, y) by (dx, dy) pixels: an inner scrollable box, else the page. */
  scroll(x: number, y: number, dx: number, dy: number): Promise<void>;
  type(text: string): Promise<void>;
  /** One chord: keys go down in order and up in reverse. */
  keypress(keys: readonly string[]): Promise<void>;
  drag(path: readonly Point[]): Promise<void>;
  move(x: number, y: number): Promise<void>;
  wait(ms?: number): Promise<void>;
  currentUrl(): string;
  goto(url: string): Promise<void>;
  back(): Promise<void>;
  forward(): Promise<void>;
}
