import { describe, expect, it } from "vitest";
import type { BrowserObservationWire } from "@/lib/foundation/protocol/browser-wire";
import { items as i, transcript } from "@/tests/helpers/chat-items";
import { browserErrorWords, browserScreens, hasBrowserActivity, pointerPercent, shortUrl, shownScreenIndex } from "./browser-screens";

const t = transcript();
const msg = t.msg;
const step = (summary: string, pointer: { x: number; y: number } | null) => msg(i.step(summary, "computer", pointer, "t"));
const seen = (over: Partial<BrowserObservationWire>, media: string[] = ["/api/files/shot"]) => msg(i.screen("", { viewport: [1000, 500], ...over }, media, "text"));

describe("browserScreens", () => {
  it("lists each browser screenshot in order with its page and the pointer that led to it", () => {
    t.reset();
    const messages = [
      msg(i.user("look at the lab")),
      msg(i.printed("1", ["/api/files/cell"])),
      step("goto(http://lab/)", null),
      seen({}, ["/api/files/a"]),
      step("click(10, 20)", { x: 10, y: 20 }),
      // The observation carries no pointer of its own: the action's is used.
      seen({ action: "click(10, 20)", url: "http://lab/form.html", title: "Form" }, ["/api/files/b"]),
      step("move(5, 5)", { x: 5, y: 5 }),
      seen({ action: "move(5, 5)", pointer: { x: 6, y: 7 } }, ["/api/files/c"]),
      step("type(x)", null),
      seen({ action: "type(x)", error: "Refused by the person." }, []),
    ];
    const screens = browserScreens(messages);
    expect(screens.map((s) => [s.image, s.url, s.title, s.pointer])).toEqual([
      ["/api/files/a", "http://lab/", "Lab", null],
      ["/api/files/b", "http://lab/form.html", "Form", { x: 10, y: 20 }],
      ["/api/files/c", "http://lab/", "Lab", { x: 6, y: 7 }],
    ]);
    expect(screens[1]!.viewport).toEqual([1000, 500]);
  });

  it("skips unsafe image URLs and orders by seq", () => {
    t.reset();
    const a = seen({}, ["javascript:alert(1)"]);
    const b = seen({ title: "B" }, ["/api/files/b"]);
    const c = seen({ title: "C" }, ["/api/files/c"]);
    expect(browserScreens([c, a, b]).map((s) => s.title)).toEqual(["B", "C"]);
  });
});

describe("hasBrowserActivity", () => {
  it("is true once a browser step or observation is there", () => {
    t.reset();
    expect(hasBrowserActivity([msg(i.user("hi")), msg(i.printed("1"))])).toBe(false);
    expect(hasBrowserActivity([step("click(1, 1)", { x: 1, y: 1 })])).toBe(true);
    expect(hasBrowserActivity([seen({})])).toBe(true);
  });
});

describe("shownScreenIndex", () => {
  t.reset();
  const screens = browserScreens([seen({}), seen({}), seen({})]);
  it("follows the latest until a screen is picked, and falls back when the pick is gone", () => {
    expect(shownScreenIndex([], null)).toBe(-1);
    expect(shownScreenIndex(screens, null)).toBe(2);
    expect(shownScreenIndex(screens, screens[0]!.seq)).toBe(0);
    expect(shownScreenIndex(screens, 999)).toBe(2);
  });
});

describe("pointerPercent", () => {
  it("places the pointer by the viewport, whatever the screenshot's pixel size", () => {
    expect(pointerPercent({ x: 512, y: 192 }, [1024, 768])).toEqual({ left: 50, top: 25 });
    expect(pointerPercent({ x: 0, y: 768 }, [1024, 768])).toEqual({ left: 0, top: 100 });
  });

  it("is null without a pointer, with a broken viewport, or off the screen", () => {
    expect(pointerPercent(null, [1024, 768])).toBeNull();
    expect(pointerPercent({ x: 1, y: 1 }, [0, 768])).toBeNull();
    expect(pointerPercent({ x: 1, y: 1 }, [NaN, 768])).toBeNull();
    expect(pointerPercent({ x: -1, y: 1 }, [1024, 768])).toBeNull();
    expect(pointerPercent({ x: 1025, y: 1 }, [1024, 768])).toBeNull();
  });
});

describe("shortUrl", () => {
  it("shows host and path of web URLs, anything else as is", () => {
    expect(shortUrl("http://127.0.0.1:8000/")).toBe("127.0.0.1:8000");
    expect(shortUrl("https://shop.example/form.html?x=1")).toBe("shop.example/form.html");
    expect(shortUrl("about:blank")).toBe("about:blank");
    expect(shortUrl("not a url")).toBe("not a url");
  });
});

describe("browserErrorWords", () => {
  it("tells the person plainly that they refused, and shows other errors as they came", () => {
    expect(browserErrorWords("The person refused this step (This types into a password field.). Nothing was done; find another way.")).toBe(
      "You refused this step, so the browser did not do it.",
    );
    expect(browserErrorWords("x=2000 is outside the 1024×768 screen.")).toBe("Didn't work: x=2000 is outside the 1024×768 screen.");
    expect(browserErrorWords("")).toBe("");
  });
});
