import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandChannel } from "@/lib/features/scale/run-commands";
import { loadScenario, startScriptedModel, type ScriptedModel } from "@/scripted-model/server";
import { ROLE_MODELS, scenarioPath } from "@/tests/helpers/agent-run";
import { api, startArgus, type RunningServer } from "@/tests/helpers/argus-server";
import { haveRedis, startRedis, type RunningRedis } from "@/tests/helpers/redis-server";
import { eventually, transcript } from "@/tests/helpers/scale-out";
import { tempDir } from "@/tests/helpers/temp-dir";

/**
 * The run-command bus carries "post a message and start a run" between
 * instances. Anyone able to publish on the instance's Redis channel sent one
 * with `redis-cli publish`, without the session's token, and the run started.
 * Here the real server, a real redis-server and the real redis-cli: the
 * forged command must be refused (commands are sealed with ARGUS_CLUSTER_SECRET),
 * and an instance given REDIS_URL without the secret must refuse to start.
 */
const scratch = tempDir();
let redis: RunningRedis;
let model: ScriptedModel;
let server: RunningServer;

describe.skipIf(!haveRedis())("the run-command bus", () => {
  beforeAll(async () => {
    redis = await startRedis();
    model = await startScriptedModel(loadScenario(scenarioPath("hello.json")));
    server = await startArgus({
      dataDir: scratch.dir,
      instanceId: "bus-target",
      redisUrl: redis.url,
      env: { ARGUS_JUPYTER: "off", OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "scripted", ...ROLE_MODELS },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.kill();
    await model?.close();
    await redis?.close();
    scratch.cleanup();
  });

  it("refuses a well-formed post published with redis-cli, without the session's token", async () => {
    const call = api(server.url);
    const session = (await call("POST", "/api/sessions")).json as { id: string; token: string };
    const forged = JSON.stringify({
      id: "forged-1",
      from: "attacker",
      expiresAt: Date.now() + 60_000,
      command: { kind: "post", sessionId: session.id, body: { role: "user", content: "forged by redis-cli" } },
    });
    const receivers = execFileSync("redis-cli", ["-p", String(redis.port), "publish", commandChannel("bus-target"), forged], { encoding: "utf8" });
    // The instance is subscribed: the command reached it.
    expect(receivers.trim()).toBe("1");
    // Either outcome is a state to wait for: the refusal in the log, or the forged message in the chat.
    await eventually(
      async () => server.output().includes("refused a run command") || (await transcript(call, session)).length > 0,
      "the forged command to be handled one way or the other",
    );
    expect(await transcript(call, session)).toEqual([]);
    expect(server.output()).toContain("refused a run command (unsigned)");
  });

  it("does not start with REDIS_URL but no ARGUS_CLUSTER_SECRET", async () => {
    const lone = tempDir();
    try {
      const failed = await startArgus({ dataDir: lone.dir, env: { ARGUS_JUPYTER: "off", REDIS_URL: redis.url, ARGUS_CLUSTER_SECRET: "" } }).catch((e: unknown) => e);
      expect(String(failed)).toMatch(/exited with .* before listening/);
      expect(String(failed)).toContain("ARGUS_CLUSTER_SECRET");
    } finally {
      lone.cleanup();
    }
  });
});
