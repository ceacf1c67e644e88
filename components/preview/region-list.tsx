"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import type { Polygon } from "@/lib/client/polygons";
import { regionColor } from "./region-colors";

interface RegionListProps {
  polygons: Polygon[];
  /** The image on screen; regions drawn on other images say which. */
  currentUrl: string | null;
  onDelete: (id: number) => void;
  onClear: () => void;
}

/** The drawn regions, which go with the next message; each can be deleted. */
export function RegionList({ polygons, currentUrl, onDelete, onClear }: RegionListProps) {
  if (polygons.length === 0) return null;
  return (
    <Card asChild className="flex flex-col gap-2">
      <section aria-label="Regions">
        <div className="flex items-center justify-between gap-2">
          <p className="text-sm text-muted-foreground">
            <span className="font-semibold text-foreground">
              {polygons.length} region{polygons.length === 1 ? "" : "s"}
            </span>{" "}
            — sent with your next message
          </p>
          <Button variant="ghost" size="xs" onClick={onClear} className="text-destructive hover:bg-danger-soft">
            Clear all
          </Button>
        </div>
        <ul data-testid="region-list" className="flex flex-col gap-1">
          {polygons.map((p) => (
            <li key={p.id} className="flex items-center gap-2 text-sm">
              <span aria-hidden="true" className="h-3 w-3 shrink-0 rounded-sm" style={{ backgroundColor: regionColor(p.id) }} />
              <span className="min-w-0 flex-1 truncate" title={p.name}>
                {p.name}
                <span className="text-muted-foreground">
                  {" "}
                  · {p.points.length} corners
                  {p.imageUrl && p.imageUrl !== currentUrl && p.imageName ? ` · on ${p.imageName}` : ""}
                </span>
              </span>
              <Button variant="ghost" size="xs" onClick={() => onDelete(p.id)} aria-label={`Delete region ${p.name}`} className="text-muted-foreground hover:text-destructive">
                Delete
              </Button>
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}
