/**
 * What Argus's safety policy needs to know about the page before an action:
 * the element under a point and the field that has focus. The element under
 * the point is Chromium's own hit test (through shadow roots, open or closed),
 * and the script runs in an isolated world (isolated-eval.ts), so the page's
 * own JavaScript cannot answer for it; it is sent as a string, because a function would be
 * serialised with the helpers the TypeScript loader adds (tsx's `__name`).
 * The page is hostile: everything read is a fact to judge, never code.
 */
import { z } from "zod";

export const ElementFactsSchema = z.object({
  tag: z.string(),
  /** `type` of an input or button, lower-case; '' otherwise. */
  type: z.string(),
  /** The nearest link's absolute URL, '' when not in a link. */
  href: z.string(),
  /** The link carries `download`. */
  download: z.boolean(),
  /** Inside a form. */
  inForm: z.boolean(),
  /** Clicking it submits a form (a submit button or input). */
  submits: z.boolean(),
  /** A password field. */
  password: z.boolean(),
  /** A frame, or an element with a closed shadow root: what is inside it cannot be read. */
  frame: z.boolean(),
});
export type ElementFacts = z.infer<typeof ElementFactsSchema>;

export const PageProbeSchema = z.object({
  at: ElementFactsSchema.nullable(),
  focus: ElementFactsSchema.nullable(),
});
export type PageProbe = z.infer<typeof PageProbeSchema>;

/**
 * The facts about one element. Links, forms and controls are looked for up the composed tree
 * (out of shadow roots too), since a click inside a shadow root reaches the link around it.
 * `opaque` is set by Argus for a focused element whose closed shadow root it cannot read.
 */
const FACTS = `(el, opaque) => {
  if (el && el.nodeType === 3) el = el.parentElement;
  if (!el || el.nodeType !== 1 || el === document.body || el === document.documentElement) return null;
  const up = (n) => n.parentElement || (n.parentNode && n.parentNode.host) || null;
  const closest = (n, selector) => { for (let e = n; e; e = up(e)) if (e.matches && e.matches(selector)) return e; return null; };
  const tag = el.tagName.toLowerCase();
  const type = (tag === "input" || tag === "button") ? String(el.type || "").toLowerCase() : "";
  const link = closest(el, "a[href], area[href]");
  const form = el.form || closest(el, "form");
  const control = closest(el, "button, input");
  const ctype = control ? String(control.type || "").toLowerCase() : "";
  return {
    tag, type,
    href: link ? String(link.href) : "",
    download: !!(link && link.hasAttribute("download")),
    inForm: !!form,
    submits: !!(control && (control.form || closest(control, "form")) && (ctype === "submit" || ctype === "image")),
    password: tag === "input" && type === "password",
    frame: opaque === true || tag === "iframe" || tag === "frame" || tag === "object" || tag === "embed",
  };
}`;

/** An expression for the focused element, through open shadow roots (a closed one stops it). */
export const FOCUS_EXPRESSION = `(() => { let focus = document.activeElement;
  while (focus && focus.shadowRoot && focus.shadowRoot.activeElement) focus = focus.shadowRoot.activeElement;
  return focus; })()`;

/**
 * A function of (the node under the point or null, the focused element or null, whether the
 * focused element hides a closed shadow root) to a PageProbe.
 */
export const PROBE_FUNCTION = `function (at, focus, focusOpaque) { const facts = ${FACTS};
  return { at: facts(at, false), focus: facts(focus, focusOpaque) }; }`;

/** The page's answer, checked: a page that tampered with the probe gives null (unknown). */
export function readProbe(value: unknown): PageProbe | null {
  const parsed = PageProbeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
