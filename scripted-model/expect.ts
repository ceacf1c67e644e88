/**
 * Checking a turn's `expect` against a request. Pure, so the wording of every mismatch can be
 * tested without a server; the wording matters because it is what a failing test prints.
 */
import type { Expect } from "./scenario";
import { countImages, offeredToolNames, textSegments, type ChatRequest } from "./request";

function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Quote a needle for a message, shortened so a 10 KB expectation does not flood the log. */
function quote(text: string): string {
  const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return JSON.stringify(shown);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** Every way the request breaks `expect`, as phrases that follow "expected the request to". */
export function expectViolations(expect: Expect | undefined, request: ChatRequest): string[] {
  if (expect === undefined) return [];
  const violations: string[] = [];
  const segments = textSegments(request);

  for (const needle of asList(expect.contains)) {
    if (!segments.some((segment) => segment.text.includes(needle))) {
      violations.push(`contain ${quote(needle)}, not found in ${plural(request.messages.length, "message")}`);
    }
  }
  for (const needle of asList(expect.notContains)) {
    const hit = segments.find((segment) => segment.text.includes(needle));
    if (hit !== undefined) {
      violations.push(`not contain ${quote(needle)}, found in message ${hit.message + 1} (${hit.role})`);
    }
  }

  const images = countImages(request);
  if (expect.images !== undefined && images < expect.images) {
    const wanted = expect.images === 1 ? "an image" : `at least ${plural(expect.images, "image")}`;
    violations.push(`contain ${wanted}, found ${images === 0 ? "none" : images}`);
  }
  if (expect.maxImages !== undefined && images > expect.maxImages) {
    violations.push(`contain at most ${plural(expect.maxImages, "image")}, found ${images}`);
  }

  const offered = offeredToolNames(request);
  // Without native tools, a tool is offered when the system prompt shows it as a tag (Argus's text protocol).
  const system = segments.filter((segment) => segment.role === "system").map((segment) => segment.text).join("\n");
  const described = (name: string) => offered.length === 0 && (system.includes(`<${name}>`) || system.includes(`<${name}/>`));
  const missing = (expect.toolNames ?? []).filter((name) => !offered.includes(name) && !described(name));
  if (missing.length > 0) {
    const have = offered.length === 0 ? "no tools were offered" : `offered: ${offered.join(", ")}`;
    violations.push(`offer ${plural(missing.length, "tool")} ${missing.join(", ")}, ${have}`);
  }
  return violations;
}
