"use client";

import { ChevronDown, Cpu } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { api, ApiError } from "@/lib/client/api";
import { roleLabel, withChoice } from "@/lib/client/model-picker";
import type { ModelRole } from "@/lib/foundation/protocol/agent-cards";
import type { ModelChoices } from "@/lib/foundation/protocol/model-choices";

export interface ModelPickerProps {
  /** The chat's choice per role (its settings); a role left out uses the server's model. */
  chosen: Partial<Record<ModelRole, string>>;
  /** Saves the whole choice for this chat (creating the chat first if it has no messages yet). */
  onChange: (models: Partial<Record<ModelRole, string>>) => Promise<void>;
  disabled?: boolean;
}

/**
 * The chat's model per role, chosen from what the endpoint lists (`GET /api/models`: the server
 * asks the endpoint with its own key; the browser sees only names). Folded away until opened,
 * and the list is asked for only then.
 */
export function ModelPicker({ chosen, onChange, disabled = false }: ModelPickerProps) {
  const [open, setOpen] = useState(false);
  const [choices, setChoices] = useState<ModelChoices | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const panelId = useId();

  useEffect(() => {
    if (!open || choices) return;
    let current = true;
    api.models().then(
      (c) => current && setChoices(c),
      (e: unknown) => current && setProblem(e instanceof ApiError ? e.message : "The models could not be listed."),
    );
    return () => {
      current = false;
    };
  }, [open, choices]);

  const change = async (role: ModelRole, model: string) => {
    setSaving(true);
    setProblem(null);
    try {
      await onChange(withChoice(chosen, role, model));
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : "The choice could not be saved.");
    } finally {
      setSaving(false);
    }
  };

  const count = Object.keys(chosen).length;
  return (
    <div data-testid="model-picker" className="border-b px-4 py-1 text-xs">
      <Button variant="ghost" size="sm" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)} className="h-7 gap-1 px-2 text-xs text-muted-foreground">
        <Cpu aria-hidden="true" />
        Models{count > 0 ? ` · ${count} chosen for this chat` : ""}
        <ChevronDown aria-hidden="true" className={open ? "rotate-180" : undefined} />
      </Button>
      <div id={panelId} hidden={!open} className="pb-2">
        {problem && (
          <p role="alert" data-testid="model-picker-problem" className="my-1 text-destructive">
            {problem}
          </p>
        )}
        {open && !choices && !problem && <p className="my-1 text-muted-foreground">Asking the endpoint for its models…</p>}
        {choices && (
          <div className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1 pt-1">
            {choices.roles.map(({ role, serverModel }) => {
              const id = `${panelId}-${role}`;
              const value = chosen[role] ?? "";
              // A name chosen earlier that the endpoint no longer lists stays visible, not silently dropped.
              const names = value && !choices.models.includes(value) ? [value, ...choices.models] : choices.models;
              return (
                <div key={role} className="contents">
                  <label htmlFor={id} className="font-medium">
                    {roleLabel(role)}
                  </label>
                  <select
                    id={id}
                    data-testid={`model-for-${role}`}
                    value={value}
                    disabled={disabled || saving}
                    onChange={(e) => void change(role, e.target.value)}
                    className="focus-ring h-7 max-w-72 rounded border bg-background px-1"
                  >
                    <option value="">{serverModel ? `Server's choice (${serverModel})` : "Server's choice (none)"}</option>
                    {names.map((name) => (
                      <option key={name} value={name}>
                        {name}
                      </option>
                    ))}
                  </select>
                </div>
              );
            })}
          </div>
        )}
        <p className="mt-1 text-muted-foreground">Used by this chat&apos;s next runs; other chats keep their own.</p>
      </div>
    </div>
  );
}
