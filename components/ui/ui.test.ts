/**
 * The primitives' contracts that other components and the e2e suite lean on:
 * markup shaped like a hand-written control, variants that replace rather
 * than stack, and names that stay on the element.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Alert } from "./alert";
import { Badge } from "./badge";
import { Button } from "./button";
import { Card } from "./card";
import { cn } from "./cn";
import { IconButton } from "./icon-button";

const html = renderToStaticMarkup;

describe("cn", () => {
  it("lets a later class of the same kind win, named sizes included", () => {
    expect(cn("h-control-sm px-2.5", "h-auto px-0")).toBe("h-auto px-0");
    expect(cn("p-3", "p-pane")).toBe("p-pane");
    expect(cn("bg-card", false, undefined, "bg-muted")).toBe("bg-muted");
  });
});

describe("Button", () => {
  it("is a type=button with its class last, so it reads like a hand-written button", () => {
    expect(html(createElement(Button, null, "Go"))).toMatch(/^<button type="button" class="[^"]+">Go<\/button>$/);
    expect(html(createElement(Button, { type: "submit", disabled: true }, "Send"))).toMatch(/^<button type="submit" disabled="" class="[^"]+">Send<\/button>$/);
  });

  it("styles a link instead with asChild, keeping the link's own attributes", () => {
    const out = html(createElement(Button, { asChild: true, variant: "outline" }, createElement("a", { href: "/x", "data-testid": "l" }, "X")));
    expect(out).toMatch(/^<a href="\/x" data-testid="l" class="[^"]*border-input[^"]*">X<\/a>$/);
  });

  it("gives each variant its own colours", () => {
    const cls = (variant: "default" | "destructive" | "ghost") => /class="([^"]+)"/.exec(html(createElement(Button, { variant }, "x")))![1]!;
    expect(cls("default")).toContain("bg-primary");
    expect(cls("destructive")).toContain("bg-destructive");
    expect(cls("ghost")).not.toContain("bg-primary");
  });
});

describe("IconButton", () => {
  it("carries its name as aria-label", () => {
    const out = html(createElement(IconButton, { label: "Delete Greetings" }, "🗑"));
    expect(out).toContain('aria-label="Delete Greetings"');
    expect(out).toContain('type="button"');
  });
});

describe("Card, Badge and Alert", () => {
  it("render their tones", () => {
    expect(html(createElement(Card, { tone: "danger" }, "x"))).toContain("bg-danger-soft");
    expect(html(createElement(Badge, { variant: "success" }, "Done"))).toContain("bg-success-soft");
    const alert = html(createElement(Alert, { id: "send-error" }, "No model"));
    expect(alert).toContain('role="alert"');
    expect(alert).toContain("No model");
    expect(html(createElement(Alert, { role: "status", tone: "warning" }, "x"))).toContain('role="status"');
  });
});
