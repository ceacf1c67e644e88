/**
 * Which tool protocol each role speaks right now. `native` and `text` are fixed by the person;
 * `auto` starts native and moves a model to text for good (for this server's life) the first
 * time its endpoint rejects `tools` or it answers in tags anyway, saying so once in the log.
 */
import type { ModelRole, ToolProtocolSetting } from "@/lib/foundation/config";
import type { ToolProtocol } from "./reply-calls";

export type SwitchReason = "tools_rejected" | "answered_in_text";

const REASONS: Record<SwitchReason, string> = {
  tools_rejected: "its endpoint rejected the request's tools",
  answered_in_text: "it wrote its tool call as text instead of using tool calls",
};

export class ToolProtocolChoice {
  private readonly settings: Partial<Record<ModelRole, ToolProtocolSetting>>;
  private readonly log: (line: string) => void;
  /** Models auto moved to text, by name (one client talks to one endpoint). */
  private readonly textModels = new Set<string>();

  constructor(settings: Partial<Record<ModelRole, ToolProtocolSetting>> = {}, log: (line: string) => void = () => {}) {
    this.settings = settings;
    this.log = log;
  }

  setting(role: ModelRole): ToolProtocolSetting {
    return this.settings[role] ?? "auto";
  }

  current(role: ModelRole, model: string): ToolProtocol {
    const setting = this.setting(role);
    if (setting !== "auto") return setting;
    return this.textModels.has(model) ? "text" : "native";
  }

  /** Under `auto`, move `model` to the text protocol; false when the setting does not allow it. */
  switchToText(role: ModelRole, model: string, reason: SwitchReason): boolean {
    if (this.setting(role) !== "auto") return false;
    if (!this.textModels.has(model)) {
      this.textModels.add(model);
      this.log(`[model] ${model} (${role}) now uses the text tool protocol: ${REASONS[reason]}. Set ARGUS_TOOL_PROTOCOL_${role.toUpperCase()}=text to start it there.`);
    }
    return true;
  }
}
