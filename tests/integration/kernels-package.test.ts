import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startKernelCore, type KernelCore } from "@/tests/helpers/kernel-core";
import { registerBridgeMethods } from "@/lib/engines/kernels/bridge";

let k: KernelCore;
beforeAll(async () => {
  k = await startKernelCore();
  // A method the agents will register (vqa and friends); here it echoes what it got.
  registerBridgeMethods(k.core.bridge, { describe_test: async (params, ctx) => ({ got: params, workspaceKnown: ctx.workspace.length > 0 }) });
});
afterAll(async () => {
  await k?.close();
});

describe("the kernel-side package in a real kernel", () => {
  it("is imported in every kernel without installation", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(s.id, "print(sorted(n for n in ('load_image', 'save_image', 'view_image', 'overlay_bounding_boxes', 'overlay_segmentation_masks', 'extract_frames_and_timestamps') if n in globals()))");
    expect(r.error).toBeNull();
    expect(r.stdout).toMatch(/extract_frames_and_timestamps.*view_image/);
  });

  it("calls back into the server over the stdin bridge without credentials", async () => {
    const s = await k.newSession();
    expect((await k.kernels.execute(s.id, "print(ping('hello bridge'))")).stdout).toBe("hello bridge\n");
    const r = await k.kernels.execute(s.id, "from argus import bridge\nprint(bridge.call('describe_test', {'n': 3}))");
    expect(r.error).toBeNull();
    expect(r.stdout).toBe("{'got': {'n': 3}, 'workspaceKnown': True}\n");
    const bad = await k.kernels.execute(s.id, "from argus import bridge\nbridge.call('no_such_method', {})");
    expect(bad.error?.name).toBe("BridgeError");
    expect(bad.error?.value).toMatch(/Unknown bridge method 'no_such_method'/);
  });

  it("marks pictures passed to view_image for the planner's next turn", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(
      s.id,
      "import numpy as np, matplotlib.pyplot as plt\nfrom IPython.display import display\nfrom PIL import Image\n" +
        "display(Image.fromarray(np.zeros((5,5,3), np.uint8)))\n" +
        "view_image(np.full((20, 30, 3), 200, np.uint8), title='overlay')\n" +
        "fig, ax = plt.subplots(); ax.plot([1,2]); view_image(fig); plt.close(fig)",
    );
    expect(r.error).toBeNull();
    const viewed = r.results.filter((x) => x.viewed);
    expect(viewed).toHaveLength(2);
    expect(viewed[0]!.data["image/png"]).toMatch(/^iVBORw0KGgo/);
    expect(viewed[0]!.data["text/plain"]).toMatch(/30x20|30×20/);
    expect(r.results.filter((x) => !x.viewed).length).toBeGreaterThanOrEqual(1);
  });

  it("answers input() at once instead of hanging the cell", async () => {
    const s = await k.newSession();
    const r = await k.kernels.execute(s.id, "name = input('Your name? ')", { timeoutMs: 20_000 });
    // EOFError is input() answering; a cell left waiting would end in the timeout's error instead.
    // (No clock here: on a busy machine "at once" can take seconds.)
    expect(r.error?.name).toBe("EOFError");
    expect(r.stderr).toMatch(/input\(\) is not available/);
  });
});
