/**
 * What Argus's safety policy needs to know about the page before an action:
 * the element under a point and the field that has focus. Read by a script
 * the page runs, sent as a string: a function would be serialised with the
 * helpers the TypeScript loader adds (tsx's `__name`), which the page lacks.
 * The page is hostile text: everything read is a fact to judge, never code.
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
});
export type ElementFacts = z.infer<typeof ElementFactsSchema>;

export const PageProbeSchema = z.object({
  at: ElementFactsSchema.nullable(),
  focus: ElementFactsSchema.nullable(),
});
export type PageProbe = z.infer<typeof PageProbeSchema>;

const FACTS = `(el) => {
  if (!el || el === document.body || el === document.documentElement) return null;
  const tag = el.tagName.toLowerCase();
  const type = (tag === "input" || tag === "button") ? String(el.type || "").toLowerCase() : "";
  const link = el.closest ? el.closest("a[href]") : null;
  const form = el.form || (el.closest ? el.closest("form") : null);
  const control = el.closest ? el.closest("button, input") : null;
  const ctype = control ? String(control.type || "").toLowerCase() : "";
  return {
    tag, type,
    href: link ? String(link.href) : "",
    download: !!(link && link.hasAttribute("download")),
    inForm: !!form,
    submits: !!(control && (control.form || control.closest("form")) && (ctype === "submit" || ctype === "image")),
    password: tag === "input" && type === "password",
  };
}`;

/** The script: an expression the page evaluates to a PageProbe. */
export function probeScript(point: { x: number; y: number } | null): string {
  const at = point ? `document.elementFromPoint(${Number(point.x)}, ${Number(point.y)})` : "null";
  return `(() => { const facts = ${FACTS}; let focus = document.activeElement;
  while (focus && focus.shadowRoot && focus.shadowRoot.activeElement) focus = focus.shadowRoot.activeElement;
  return { at: facts(${at}), focus: facts(focus) }; })()`;
}

/** The page's answer, checked: a page that tampered with the probe gives null (unknown). */
export function readProbe(value: unknown): PageProbe | null {
  const parsed = PageProbeSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
