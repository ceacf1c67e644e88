import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { coinsPng, ROLE_MODELS } from "@/tests/helpers/agent-run";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";

let model: ScriptedModel;
let k: KernelCore;
beforeAll(async () => {
  model = await startScriptedModel({
    name: "describe and classify",
    turns: [
      { model: "vqa", expect: { contains: "Describe this image", images: 1 }, text: "Rows of old coins on a dark cloth." },
      { model: "vqa", expect: { contains: ["coins", "cats"], images: 1, toolNames: ["give_scores"] }, toolCalls: [{ name: "give_scores", args: { scores: [{ label: "coins", score: 0.97 }, { label: "cats", score: 0.03 }] } }] },
    ],
  });
  k = await startKernelCore({ OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS });
});
afterAll(async () => {
  await k?.close();
  await model?.close();
});

describe("describe and classify from the kernel", () => {
  it("reach the model over the bridge with the picture, and come back typed", async () => {
    const s = await k.newSession();
    writeFileSync(path.join(k.core.config.sessionsDir, s.id, "coins.png"), await coinsPng());
    const r = await k.kernels.execute(
      s.id,
      "from argus.tools import describe, classify\nprint(describe('coins.png'))\nprint(classify('coins.png', ['coins', 'cats']))",
    );
    expect(r.error).toBeNull();
    expect(r.stdout).toContain("Rows of old coins on a dark cloth.");
    expect(r.stdout).toContain("[{'label': 'coins', 'score': 0.97}, {'label': 'cats', 'score': 0.03}]");
    expect(model.requests.every((q) => q.status === 200 && q.images === 1)).toBe(true);
  });
});
