import { FlaskConical, SquareTerminal, type LucideIcon } from "lucide-react";
import { agentCard, type AgentCard } from "@/lib/foundation/protocol/agent-cards";

const ICONS: Record<NonNullable<AgentCard["icon"]>, LucideIcon> = { terminal: SquareTerminal, flask: FlaskConical };

/** The icon of an agent's step cards and live drafts (agent-cards.ts names it). */
export function agentIcon(agent: string): LucideIcon {
  const icon = agentCard(agent)?.icon;
  return icon ? ICONS[icon] : FlaskConical;
}
