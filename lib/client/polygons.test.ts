import { describe, expect, it } from "vitest";
import {
  clampPan,
  closePolygon,
  defaultRegionName,
  IDENTITY_VIEW,
  isValidPolygon,
  nextPolygonId,
  polygonArea,
  polygonCentroid,
  regionsMessage,
  regionsToText,
  svgPoints,
  toImageCoords,
  zoomAround,
  type Polygon,
} from "./polygons";

const rect = { left: 100, top: 50, width: 400, height: 300 };

describe("toImageCoords", () => {
  it("maps the displayed box onto intrinsic pixels", () => {
    // Displayed at 400×300, the image is 1600×1200: 4× in both directions.
    expect(toImageCoords(100, 50, rect, 1600, 1200)).toEqual({ x: 0, y: 0 });
    expect(toImageCoords(300, 200, rect, 1600, 1200)).toEqual({ x: 800, y: 600 });
    expect(toImageCoords(500, 350, rect, 1600, 1200)).toEqual({ x: 1600, y: 1200 });
  });

  it("rounds to whole pixels", () => {
    expect(toImageCoords(101.3, 50.6, rect, 1600, 1200)).toEqual({ x: 5, y: 2 });
  });

  it("works with a zoomed (transformed) bounding box", () => {
    const zoomed = { left: -300, top: -250, width: 1200, height: 900 }; // 3× zoom
    expect(toImageCoords(300, 200, zoomed, 1600, 1200)).toEqual({ x: 800, y: 600 });
  });

  it("clamps to the image edges", () => {
    expect(toImageCoords(90, 400, rect, 1600, 1200)).toEqual({ x: 0, y: 1200 });
  });

  it("is null before the element has a size", () => {
    expect(toImageCoords(1, 1, { left: 0, top: 0, width: 0, height: 0 }, 100, 100)).toBeNull();
    expect(toImageCoords(1, 1, rect, 0, 0)).toBeNull();
  });
});

describe("closePolygon", () => {
  it("drops the double-click's repeated vertex", () => {
    const pts = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
      { x: 10, y: 10 },
    ];
    expect(closePolygon(pts)).toEqual([
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
    ]);
  });

  it("drops a last vertex that returns to the first, within the tolerance", () => {
    const pts = [
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
      { x: 2, y: 1 },
    ];
    expect(closePolygon(pts, 3)).toHaveLength(3);
    expect(closePolygon(pts, 1)).toHaveLength(4);
  });

  it("does not alter its input", () => {
    const pts = [
      { x: 1, y: 1 },
      { x: 1, y: 1 },
    ];
    closePolygon(pts);
    expect(pts).toHaveLength(2);
  });
});

describe("polygonArea and isValidPolygon", () => {
  const square = [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 10, y: 10 },
    { x: 0, y: 10 },
  ];

  it("computes the shoelace area in either winding", () => {
    expect(polygonArea(square)).toBe(100);
    expect(polygonArea([...square].reverse())).toBe(100);
    expect(polygonArea([{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 0, y: 3 }])).toBe(6);
  });

  it("needs three vertices and some area", () => {
    expect(isValidPolygon(square)).toBe(true);
    expect(isValidPolygon(square.slice(0, 2))).toBe(false);
    expect(isValidPolygon([{ x: 0, y: 0 }, { x: 5, y: 5 }, { x: 10, y: 10 }])).toBe(false); // collinear
    expect(isValidPolygon([])).toBe(false);
  });
});

describe("small helpers", () => {
  it("centroid, svg points, ids and default names", () => {
    expect(polygonCentroid([{ x: 0, y: 0 }, { x: 6, y: 0 }, { x: 0, y: 3 }])).toEqual({ x: 2, y: 1 });
    expect(polygonCentroid([])).toEqual({ x: 0, y: 0 });
    expect(svgPoints([{ x: 1, y: 2 }, { x: 3, y: 4 }])).toBe("1,2 3,4");
    const polys: Polygon[] = [
      { id: 4, name: "region 2", points: [] },
      { id: 2, name: "a", points: [] },
    ];
    expect(nextPolygonId(polys)).toBe(5);
    expect(nextPolygonId([])).toBe(1);
    expect(defaultRegionName(polys)).toBe("region 3");
    expect(defaultRegionName([{ id: 1, name: "region 2", points: [] }])).toBe("region 3");
  });
});

describe("regionsToText", () => {
  const tray: Polygon = {
    id: 1,
    name: "left tray",
    points: [
      { x: 10, y: 20 },
      { x: 200, y: 20 },
      { x: 200, y: 180 },
    ],
  };

  it("names the image and lists each region's vertices", () => {
    expect(regionsToText([tray], "coins.png")).toBe(
      'Regions drawn on coins.png (pixel coordinates): "left tray": [[10, 20], [200, 20], [200, 180]]',
    );
  });

  it("joins several regions, quotes names safely and rounds", () => {
    const odd: Polygon = { id: 2, name: 'say "hi"', points: [{ x: 1.4, y: 2.6 }, { x: 3, y: 4 }, { x: 5, y: 0 }] };
    const unnamed: Polygon = { id: 3, name: "  ", points: [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 1, y: 1 }] };
    expect(regionsToText([tray, odd, unnamed], "a.png")).toBe(
      'Regions drawn on a.png (pixel coordinates): "left tray": [[10, 20], [200, 20], [200, 180]]; ' +
        '"say \\"hi\\"": [[1, 3], [3, 4], [5, 0]]; "region 3": [[0, 0], [1, 0], [1, 1]]',
    );
  });

  it("is empty without regions", () => {
    expect(regionsToText([], "coins.png")).toBe("");
    expect(regionsMessage([])).toBe("");
  });

  it("regionsMessage groups by the image each region was drawn on", () => {
    const a = { ...tray, imageName: "a.png" };
    const b = { ...tray, id: 2, name: "b1", imageName: "b.png" };
    const a2 = { ...tray, id: 3, name: "a2", imageName: "a.png" };
    const text = regionsMessage([a, b, a2]);
    expect(text.split("\n")).toEqual([
      regionsToText([a, a2], "a.png"),
      regionsToText([b], "b.png"),
    ]);
    expect(regionsMessage([tray], "photo.jpg")).toBe(regionsToText([tray], "photo.jpg"));
  });
});

describe("zoomAround and clampPan", () => {
  it("keeps the anchor fixed while zooming", () => {
    const v = zoomAround(IDENTITY_VIEW, 2, { x: 100, y: 50 });
    expect(v).toEqual({ scale: 2, x: -100, y: -50 });
    // The content point under the anchor: (anchor - t) / scale = (100, 50) both before and after.
    expect((100 - v.x) / v.scale).toBe(100);
    const w = zoomAround(v, 4, { x: 100, y: 50 });
    expect((100 - w.x) / w.scale).toBe(100);
  });

  it("clamps the scale and resets at 1", () => {
    expect(zoomAround({ scale: 2, x: -10, y: -10 }, 0.5, { x: 0, y: 0 })).toEqual(IDENTITY_VIEW);
    expect(zoomAround(IDENTITY_VIEW, 100, { x: 0, y: 0 }).scale).toBe(8);
  });

  it("does not pan past the edges", () => {
    expect(clampPan({ scale: 2, x: 50, y: -500 }, 200, 100)).toEqual({ scale: 2, x: 0, y: -100 });
    expect(clampPan({ scale: 1, x: 5, y: 5 }, 200, 100)).toEqual(IDENTITY_VIEW);
  });
});
