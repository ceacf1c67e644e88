"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";

interface RegionNameFormProps {
  defaultName: string;
  onSave: (name: string) => void;
  onDiscard: () => void;
}

/** Names a just-closed shape inline; Enter saves, Escape discards. */
export function RegionNameForm({ defaultName, onSave, onDiscard }: RegionNameFormProps) {
  const [name, setName] = useState(defaultName);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  return (
    <Card asChild tone="info" padding="none" className="flex flex-wrap items-center gap-2 p-2">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSave(name.trim() || defaultName);
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            onDiscard();
          }
        }}
      >
        <label htmlFor={id} className="text-sm font-medium">
          Name this region
        </label>
        <Input ref={input} id={id} value={name} maxLength={80} onChange={(e) => setName(e.target.value)} className="flex-1" />
        <Button type="submit" size="xs">
          Save region
        </Button>
        <Button variant="outline" size="xs" onClick={onDiscard}>
          Discard
        </Button>
      </form>
    </Card>
  );
}
