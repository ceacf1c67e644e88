/**
 * The function runner on a Jupyter server that does not share Argus's disk
 * (JUPYTER_URL + ARGUS_WORKSPACE_TRANSPORT=kernel): the image goes in and the
 * saved overlay comes back through the kernel, and a reused kernel shows no
 * call the files of the one before.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/lib/foundation/config";
import { openFunctionRunner } from "@/lib/features/functions/run-function";
import { createArgusCore, type ArgusCore } from "@/lib/server/argus-core";
import { createSession } from "@/lib/features/sessions/service";
import { COUNT_COINS_CODE, coinImage } from "@/tests/helpers/coin-images";
import { startDeployedJupyter, type DeployedJupyter } from "@/tests/helpers/jupyter-host";
import { tempDir } from "@/tests/helpers/temp-dir";
import { engineEnv } from "@/tests/helpers/test-engines";

const scratch = tempDir("argus-fn-remote-");
let theirs: DeployedJupyter;
let core: ArgusCore;

beforeAll(async () => {
  theirs = await startDeployedJupyter(scratch.dir);
  const dataDir = path.join(scratch.dir, "argus-data");
  core = await createArgusCore(
    loadConfig(
      {
        ARGUS_DATA_DIR: dataDir,
        JUPYTER_URL: theirs.url,
        JUPYTER_TOKEN: theirs.token,
        ARGUS_KERNEL_NAME: "argus-python",
        ARGUS_KERNEL_POOL: "1",
        ARGUS_KERNEL_PRELOAD: "none",
        ARGUS_WORKSPACE_TRANSPORT: "kernel",
        ...(await engineEnv(dataDir)),
      },
      process.cwd(),
    ),
  );
  await core.start();
}, 120_000);
afterAll(async () => {
  await core?.close();
  await theirs?.server.stop();
  scratch.cleanup();
});

describe("function runner with the workspace moved through the kernel", () => {
  it("counts the coins, brings back the overlay, and clears each call's files", async () => {
    const sessionId = (await createSession(core, null)).id;
    const deps = { kernels: core.kernels!, db: core.db, blobs: core.blobs };
    const counter = openFunctionRunner(deps, { sessionId, name: "count_coins", code: COUNT_COINS_CODE });
    try {
      for (const count of [4, 11]) {
        const out = await counter.call({ name: `coins-${count}.png`, bytes: await coinImage(count) });
        expect(out.error, JSON.stringify(out)).toBeUndefined();
        expect((out.result as { count: number }).count).toBe(count);
        expect(out.images.map((i) => i.name)).toEqual(["coins_overlay.png"]);
      }
    } finally {
      await counter.close();
    }
    const lister = openFunctionRunner(deps, { sessionId, name: "ls", code: "import os\ndef ls(p):\n    open('out.png', 'wb').write(b'not really a png')\n    return sorted(n for n in os.listdir('.') if not n.startswith('.'))\n" });
    try {
      expect((await lister.call({ name: "a.png", bytes: new Uint8Array([1]) })).result).toEqual(["a.png", "out.png"]);
      // The previous call's input and output are gone; a saved file that is no picture is not kept.
      const second = await lister.call({ name: "b.png", bytes: new Uint8Array([2]) });
      expect(second.result).toEqual(["b.png", "out.png"]);
      expect(second.images).toEqual([]);
    } finally {
      await lister.close();
    }
  });
});
