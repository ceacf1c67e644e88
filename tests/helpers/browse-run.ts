/**
 * A world for the browsing agent: the lab site on loopback, the scripted model with a
 * `browser` role, and a real Argus (real Chromium, real kernels) allowed to reach the lab.
 * The browser renders at device scale 2 (HiDPI) and the model is shown the screen at 800 px,
 * so every scripted coordinate goes through the agent's scaling: `m()` turns a CSS point of
 * the lab's fixed layout into the model's pixels.
 */
import { coinsPng, scenarioPath, startAgentWorld, watchSession, type AgentWorld, type Watch } from "./agent-run";
import { startLab, type Lab } from "./browser-lab";
import { CHROMIUM } from "./computer";

export const VIEWPORT = [1024, 768] as const;
export const SCREEN_EDGE = 800;
export const MAX_STEPS = 8;
const RATIO = VIEWPORT[0] / SCREEN_EDGE;

/** A CSS point of the lab page as the model sees it on the downscaled screenshot. */
export function m(x: number, y: number): { x: number; y: number } {
  return { x: Math.round(x / RATIO), y: Math.round(y / RATIO) };
}

export interface BrowseWorld extends AgentWorld {
  lab: Lab;
}

/** `env` adds to or overrides the browsing settings (e.g. a computer-use browser model). */
export async function startBrowseWorld(env: Record<string, string> = {}): Promise<BrowseWorld> {
  const lab = await startLab({ photos: { coins: await coinsPng() } });
  try {
    const world = await startAgentWorld(scenarioPath("hello.json"), {
      ARGUS_MODEL_BROWSER: "browser",
      ARGUS_CHROMIUM: CHROMIUM,
      ARGUS_BROWSER_ALLOW: lab.hostPort,
      ARGUS_BROWSER_BLOCK: "blocked.example",
      ARGUS_BROWSER_MAX_STEPS: String(MAX_STEPS),
      ARGUS_BROWSER_SCREEN_EDGE: String(SCREEN_EDGE),
      ARGUS_BROWSER_DEVICE_SCALE: "2",
      ...env,
    });
    return {
      ...world,
      lab,
      close: async () => {
        await world.close();
        await lab.close();
      },
    };
  } catch (error) {
    await lab.close();
    throw error;
  }
}

type Call = { name: string; args: unknown };
export type TurnIn = { model: string; toolCalls: Call[]; expect?: Record<string, unknown>; fault?: Record<string, unknown> };

export const turn = (model: string, name: string, args: unknown, expect?: Record<string, unknown>): TurnIn => ({
  model,
  toolCalls: [{ name, args }],
  ...(expect ? { expect } : {}),
});

/** A browser turn: one tool call, checked to carry exactly the newest screenshot. */
export const browserTurn = (name: string, args: unknown, contains?: string | string[]): TurnIn =>
  turn("browser", name, args, { images: 1, maxImages: 1, toolNames: ["computer", "goto", "back", "save_image", "done"], ...(contains ? { contains } : {}) });

export interface Session {
  id: string;
  token: string;
}

/** A new session watched over Socket.io, with the scenario loaded and the message sent. */
export async function startBrowse(world: BrowseWorld, turns: TurnIn[], text: string, settings?: Record<string, unknown>) {
  world.model.load({ name: "browse", turns });
  const session = (await world.call("POST", "/api/sessions")).json as Session;
  if (settings) {
    const patched = await world.call("PATCH", `/api/sessions/${session.id}`, { token: session.token, body: { settings } });
    if (patched.status !== 200) throw new Error(`settings: ${patched.status} ${patched.text}`);
  }
  const watch = await watchSession(world.server.url, session);
  const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "user", content: text } });
  if (posted.status !== 202) throw new Error(`message: ${posted.status} ${posted.text}`);
  return { session, watch, runId: posted.json.runId as string };
}

/** Answers the run's next safety card (waits for it) and returns the card's payload. */
export async function answerSafety(world: BrowseWorld, session: Session, watch: Watch, runId: string, answer: "Confirm" | "Refuse", nth: number) {
  for (;;) {
    const cards = watch.messages.filter((msg) => msg.runId === runId && msg.role === "interaction");
    if (cards.length >= nth) {
      const card = JSON.parse(cards[nth - 1]!.content.replace(/^<interaction>|<\/interaction>$/g, ""));
      const res = await world.call("POST", `/api/sessions/${session.id}/messages`, { token: session.token, body: { role: "interaction_response", content: answer } });
      if (res.status !== 202) throw new Error(`answer: ${res.status} ${res.text}`);
      return card;
    }
    const state = watch.states.filter((s) => s.runId === runId).at(-1)?.agentState;
    if (state && ["finished", "error", "stopped"].includes(state)) throw new Error(`the run ended (${state}) before safety card ${nth}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The JSON inside a message's tag. */
export function tagged<T>(content: string, tag: string): T | null {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(content);
  return match ? (JSON.parse(match[1]!) as T) : null;
}
