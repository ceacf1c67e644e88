"use client";

import { polygonCentroid, svgPoints, type Point, type Polygon } from "@/lib/client/polygons";
import { DRAFT_COLOR, regionColor } from "./region-colors";

interface RegionOverlayProps {
  naturalW: number;
  naturalH: number;
  polygons: Polygon[];
  draft: Point[];
  /** Image pixels per screen pixel, so markers and labels keep their on-screen size at any zoom. */
  unit: number;
  /** Catch clicks (over a video, whose own controls would take them). */
  capture: boolean;
}

/**
 * The regions drawn over the picture: an SVG in the image's own pixel
 * coordinates, stretched over the displayed (and zoomed) image. Decorative for
 * assistive technology — the region list is the accessible form.
 */
export function RegionOverlay({ naturalW, naturalH, polygons, draft, unit, capture }: RegionOverlayProps) {
  const font = 13 * unit;
  return (
    <svg
      aria-hidden="true"
      viewBox={`0 0 ${naturalW} ${naturalH}`}
      preserveAspectRatio="none"
      className={`absolute inset-0 h-full w-full ${capture ? "" : "pointer-events-none"}`}
    >
      {polygons.map((p) => {
        const color = regionColor(p.id);
        const c = polygonCentroid(p.points);
        return (
          <g key={p.id}>
            <polygon points={svgPoints(p.points)} fill={color} fillOpacity={0.22} stroke={color} strokeWidth={2} vectorEffect="non-scaling-stroke" />
            <text
              x={c.x}
              y={c.y}
              fontSize={font}
              textAnchor="middle"
              dominantBaseline="middle"
              fill="#fff"
              stroke="#000"
              strokeWidth={3 * unit}
              paintOrder="stroke"
              fontFamily="ui-sans-serif, system-ui, sans-serif"
              fontWeight={600}
            >
              {p.name}
            </text>
          </g>
        );
      })}
      {draft.length > 0 && (
        <g>
          <polyline
            points={svgPoints(draft.length > 2 ? [...draft, draft[0]!] : draft)}
            fill={draft.length > 2 ? DRAFT_COLOR : "none"}
            fillOpacity={0.15}
            stroke={DRAFT_COLOR}
            strokeWidth={2}
            strokeDasharray="6 4"
            vectorEffect="non-scaling-stroke"
          />
          {draft.map((pt, i) => (
            <circle key={i} cx={pt.x} cy={pt.y} r={(i === 0 ? 5 : 3.5) * unit} fill={DRAFT_COLOR} stroke="#000" strokeWidth={1} vectorEffect="non-scaling-stroke" />
          ))}
        </g>
      )}
    </svg>
  );
}
