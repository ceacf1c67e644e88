import { describe, expect, it } from "vitest";
import { actionToPage, modelScreen, offScreen, regionOffScreen, regionToPage, scaleBetween } from "./screen-scale";

describe("screen scaling", () => {
  it("shows the model the screen at most maxEdge wide, never larger than the page", () => {
    expect(modelScreen([1024, 768], 1024)).toEqual([1024, 768]);
    expect(modelScreen([1024, 768], 800)).toEqual([800, 600]);
    expect(modelScreen([1280, 800], 2000)).toEqual([1280, 800]);
  });

  it("maps the model's coordinates back to CSS pixels", () => {
    const s = scaleBetween([800, 600], [1024, 768]);
    expect(actionToPage({ type: "click", x: 400, y: 300, button: "left" }, s)).toEqual({ type: "click", x: 512, y: 384, button: "left" });
    expect(actionToPage({ type: "scroll", x: 100, y: 100, scroll_x: 0, scroll_y: 250 }, s)).toEqual({ type: "scroll", x: 128, y: 128, scroll_x: 0, scroll_y: 320 });
    expect(actionToPage({ type: "drag", path: [{ x: 0, y: 0 }, { x: 800, y: 600 }] }, s)).toEqual({ type: "drag", path: [{ x: 0, y: 0 }, { x: 1024, y: 768 }] });
    expect(actionToPage({ type: "type", text: "hi" }, s)).toEqual({ type: "type", text: "hi" });
    expect(regionToPage({ x: 10, y: 10, width: 100, height: 50 }, s)).toEqual({ x: 13, y: 13, width: 128, height: 64 });
  });

  it("is the identity when the model sees the page at its own size", () => {
    const s = scaleBetween([1024, 768], [1024, 768]);
    expect(actionToPage({ type: "move", x: 7, y: 9 }, s)).toEqual({ type: "move", x: 7, y: 9 });
  });
});

describe("off-screen points", () => {
  it("are named in the model's own pixels", () => {
    expect(offScreen({ type: "click", x: 5000, y: 10, button: "left" }, [800, 600])).toBe("x=5000 is outside the 800×600 screenshot (x runs from 0 to 799).");
    expect(offScreen({ type: "drag", path: [{ x: 1, y: 1 }, { x: 10, y: 600 }] }, [800, 600])).toMatch(/^y=600/);
    expect(offScreen({ type: "type", text: "x" }, [800, 600])).toBeNull();
    expect(regionOffScreen({ x: 700, y: 0, width: 200, height: 10 }, [800, 600])).toMatch(/does not fit/);
    expect(regionOffScreen({ x: 0, y: 0, width: 800, height: 600 }, [800, 600])).toBeNull();
  });
});
