"use client";

import { useState } from "react";
import type { MediaItem } from "@/lib/client/preview-data";
import {
  closePolygon,
  defaultRegionName,
  isValidPolygon,
  nextPolygonId,
  type Point,
  type Polygon,
} from "@/lib/client/polygons";
import { EmptyState } from "./empty-state";
import { MediaStrip } from "./media-strip";
import { MediaViewer } from "./media-viewer";
import { RegionList } from "./region-list";
import { RegionNameForm } from "./region-name-form";
import { RegionToolbar } from "./region-toolbar";

interface MediaTabProps {
  items: MediaItem[];
  polygons: Polygon[];
  onPolygonsChange: (polygons: Polygon[]) => void;
}

/**
 * The session's pictures and videos: pick one, look at it closely, and draw
 * named regions on it for the planner (sent with the next message).
 */
export function MediaTab({ items, polygons, onPolygonsChange }: MediaTabProps) {
  const [selectedUrl, setSelectedUrl] = useState<string | null>(null);
  const [drawMode, setDrawMode] = useState(false);
  const [draft, setDraft] = useState<Point[]>([]);
  const [pending, setPending] = useState<Point[] | null>(null);
  const [announcement, setAnnouncement] = useState("");

  // A new upload comes into view by itself (adjusting state while rendering, as React recommends).
  const newestUpload = items.filter((i) => i.origin === "upload").at(-1)?.url ?? null;
  const [seenUpload, setSeenUpload] = useState(newestUpload);
  if (newestUpload !== seenUpload) {
    setSeenUpload(newestUpload);
    if (newestUpload) setSelectedUrl(newestUpload);
  }

  if (items.length === 0) {
    return <EmptyState>No media yet — upload an image or a short video to ask about it.</EmptyState>;
  }
  // Until the person picks one: the newest upload, else the first picture.
  const selected = items.find((i) => i.url === (selectedUrl ?? newestUpload)) ?? items[0]!;
  const onScreen = polygons.filter((p) => !p.imageUrl || p.imageUrl === selected.url);

  const select = (item: MediaItem) => {
    setSelectedUrl(item.url);
    setDraft([]);
    setPending(null);
  };

  const finish = (tolerance: number) => {
    const closed = closePolygon(draft, tolerance);
    if (!isValidPolygon(closed)) {
      setDraft(closed);
      setAnnouncement("A region needs at least three corners around some area.");
      return;
    }
    setDraft([]);
    setPending(closed);
  };

  const save = (name: string) => {
    if (!pending) return;
    const region: Polygon = { id: nextPolygonId(polygons), name, points: pending, imageName: selected.name, imageUrl: selected.url };
    onPolygonsChange([...polygons, region]);
    setPending(null);
    setAnnouncement(`Region “${name}” added; it will be sent with your next message.`);
  };

  const remove = (id: number) => {
    const gone = polygons.find((p) => p.id === id);
    onPolygonsChange(polygons.filter((p) => p.id !== id));
    if (gone) setAnnouncement(`Region “${gone.name}” deleted.`);
  };

  const toolbar = (
    <RegionToolbar
      drawMode={drawMode}
      points={draft.length}
      onToggle={() => {
        setDrawMode(!drawMode);
        setDraft([]);
      }}
      onClose={() => finish(0)}
      onUndo={() => setDraft(draft.slice(0, -1))}
      onCancel={() => setDraft([])}
    />
  );

  return (
    <div className="flex flex-col gap-3">
      {items.length > 1 && <MediaStrip items={items} selectedUrl={selected.url} onSelect={select} />}
      <MediaViewer
        key={selected.url}
        item={selected}
        polygons={onScreen}
        draft={pending ?? draft}
        drawing={drawMode && pending === null}
        onAddPoint={(p) => setDraft((d) => [...d, p])}
        onFinish={finish}
        onUndoPoint={() => setDraft((d) => d.slice(0, -1))}
        onCancelDraft={() => setDraft([])}
        tools={toolbar}
      />
      {pending && <RegionNameForm defaultName={defaultRegionName(polygons)} onSave={save} onDiscard={() => setPending(null)} />}
      <RegionList polygons={polygons} currentUrl={selected.url} onDelete={remove} onClear={() => onPolygonsChange([])} />
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}
