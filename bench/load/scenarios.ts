/** The scripted model's scenarios for the runs, and the pictures they count. */
import sharp from "sharp";
import type { Scenario } from "@/scripted-model/server";

type Turn = Scenario["turns"][number];

const tool = (model: string, name: string, args: unknown, contains?: string | string[]): Turn => ({
  model,
  toolCalls: [{ name, args }],
  ...(contains ? { expect: { contains } } : {}),
});

const CELL_COUNT = [
  "import cv2, numpy as np",
  "img = cv2.imread('shapes.png', cv2.IMREAD_GRAYSCALE)",
  "_, bw = cv2.threshold(img, 127, 255, cv2.THRESH_BINARY)",
  "n, labels, stats, centroids = cv2.connectedComponentsWithStats(bw)",
  "areas = stats[1:, cv2.CC_STAT_AREA]",
  "print('blobs:', n - 1)",
].join("\n");

const CELL_MEASURE = [
  "r = np.sqrt(areas / np.pi)",
  "print('mean radius: %.1f px' % r.mean())",
  "print('largest area:', int(areas.max()), 'px')",
].join("\n");

const CELL_OVERLAY = [
  "overlay = cv2.cvtColor(img, cv2.COLOR_GRAY2RGB)",
  "for x, y, w, h, _ in stats[1:]:",
  "    cv2.rectangle(overlay, (int(x), int(y)), (int(x + w), int(y + h)), (255, 0, 0), 2)",
  "view_image(overlay, title='blobs')",
  "print('boxes drawn:', len(stats) - 1)",
].join("\n");

const FUNCTION = [
  "import cv2",
  "",
  "",
  "def count_blobs(image_path):",
  '    """Counts the bright blobs in an image."""',
  "    img = cv2.imread(image_path, cv2.IMREAD_GRAYSCALE)",
  "    _, bw = cv2.threshold(img, 127, 255, cv2.THRESH_BINARY)",
  "    n, _ = cv2.connectedComponents(bw)",
  "    return n - 1",
].join("\n");

/**
 * One planner run. `tag` is in the person's message, so it is in every
 * conversation and planner request; the plan carries it into the coder's.
 * The expectations check that each observation is this session's own result.
 */
export function plannerRun(tag: string, blobs: number, cells: 1 | 3): Turn[] {
  const exploring: Turn[] = [tool("planner", "execute_python", { thinking: "Threshold and label the blobs.", code: CELL_COUNT }, tag)];
  if (cells === 3) {
    exploring.push(tool("planner", "execute_python", { thinking: "Measure them.", code: CELL_MEASURE }, `blobs: ${blobs}`));
    exploring.push(tool("planner", "execute_python", { thinking: "Look at the boxes.", code: CELL_OVERLAY }, "mean radius"));
  }
  return [
    tool("conversation", "reply", { response: "Let me count them.", action: "generate_or_edit_vision_code" }, tag),
    ...exploring,
    tool("planner", "finalize_plan", { thinking: `Every blob is found once: ${blobs}.` }, cells === 3 ? `boxes drawn: ${blobs}` : `blobs: ${blobs}`),
    tool("planner", "submit_plan", {
      plan: `${tag} Threshold at 127 and count connected components: ${blobs} blobs.`,
      instructions: ["read the image as grayscale", "threshold at 127", "count connected components minus the background"],
      code: FUNCTION,
    }),
    tool("coder", "write_code", { code: FUNCTION }, tag),
    tool("coder", "write_test", { test: "print('count:', count_blobs('shapes.png'))" }, tag),
    tool("conversation", "reply", { response: `There are **${blobs} blobs**.` }, [tag, `count: ${blobs}`]),
  ];
}

export function chatRun(tag: string, marker: string): Turn[] {
  return [tool("conversation", "reply", { response: `Noted ${marker}.` }, [tag, marker])];
}

export const scenario = (name: string, turns: Turn[]): Scenario => ({ name, turns }) as Scenario;

/** `count` white discs on black, one per cell of a 6×4 grid. */
export async function shapesPng(count: number, seed: number): Promise<Buffer> {
  const circles = Array.from({ length: count }, (_, j) => {
    const cell = (j * 7 + seed) % 24;
    const cx = (cell % 6) * 80 + 40;
    const cy = Math.floor(cell / 6) * 80 + 40;
    return `<circle cx="${cx}" cy="${cy}" r="${12 + ((j + seed) % 3) * 8}" fill="white"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320"><rect width="480" height="320" fill="black"/>${circles.join("")}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
