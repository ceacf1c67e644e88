/**
 * The acceptance scenario (count the coins) through JUPYTER_URL with the workspace moved through
 * the kernel: the Jupyter server's root is not Argus's data directory, so the upload reaches the
 * planner's kernel, and the coder's isolated one, only over the kernel channel.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ManagedJupyterServer } from "@/lib/kernels/jupyter-server";
import { coinsPng, scenarioPath, startAgentWorld, uploadFile, watchSession, type AgentWorld } from "@/tests/helpers/agent-run";
import { startExternalJupyter } from "@/tests/helpers/external-jupyter";
import { tempDir } from "@/tests/helpers/temp-dir";

const scratch = tempDir("argus-agents-shared-jupyter-");
let theirs: { server: ManagedJupyterServer; rootDir: string; url: string; token: string };
let world: AgentWorld;

beforeAll(async () => {
  theirs = await startExternalJupyter(scratch.dir);
  world = await startAgentWorld(scenarioPath("count-coins.json"), {
    JUPYTER_URL: theirs.url,
    JUPYTER_TOKEN: theirs.token,
    ARGUS_KERNEL_NAME: "argus-python",
    ARGUS_WORKSPACE_TRANSPORT: "kernel",
  });
}, 120_000);
afterAll(async () => {
  await world?.close();
  await theirs?.server.stop();
  scratch.cleanup();
});

describe("count coins on a shared Jupyter, files through the kernel", () => {
  it("reads the upload in the remote kernel, shows the overlay, tests the code, answers 24", { timeout: 180_000 }, async () => {
    const session = (await world.call("POST", "/api/sessions")).json as { id: string; token: string };
    const upload = await uploadFile(world, session, await coinsPng(), "coins.png");
    // Under transport `kernel` the server keeps the upload in its blob store only.
    expect(readdirSync(path.join(world.server.dataDir, "sessions", session.id))).toEqual([]);

    const watch = await watchSession(world.server.url, session);
    const posted = await world.call("POST", `/api/sessions/${session.id}/messages`, {
      token: session.token,
      body: { role: "user", content: "How many coins are on the table?", media: [upload.id] },
    });
    expect(posted.status).toBe(202);
    const runId = posted.json.runId as string;
    const end = await watch.until(["finished", "error", "stopped"], 150_000, runId);
    expect(end.agentState, JSON.stringify(watch.messages.filter((m) => m.role === "error_observation"))).toBe("finished");

    const mine = watch.messages.filter((m) => m.runId === runId);
    const observation = mine.find((m) => m.role === "observation")!;
    expect(observation.content).toMatch(/24 coins/);
    // The overlay the planner viewed is one of the session's files, served like any other.
    expect(observation.media?.[0]).toMatch(/^\/api\/files\//);
    const overlay = await fetch(world.server.url + observation.media![0]!, { headers: { authorization: `Bearer ${session.token}` } });
    expect(overlay.status).toBe(200);
    expect(overlay.headers.get("content-type")).toBe("image/png");
    // The coder's test ran in its own kernel, which got the upload through the kernel channel too.
    expect(mine.filter((m) => m.role === "observation").at(-1)!.content).toMatch(/24/);
    expect(mine.at(-1)!.content).toMatch(/24 coins/);

    // The upload is in the session's workspace on the kernel host, and still not on Argus's disk.
    expect(existsSync(path.join(theirs.rootDir, "argus-workspaces", session.id, "coins.png"))).toBe(true);
    expect(readdirSync(path.join(world.server.dataDir, "sessions", session.id))).toEqual([]);
    watch.socket.disconnect();
  });
});
