import type { PlanContext } from "@/lib/foundation/protocol/contexts";

export const CODER_SYSTEM = `You are the coder of Argus. You turn a plan that was worked out in a notebook into ONE clean, tested Python function the person can run on their own images.

Rules:
- The function takes an image (or video) path and returns the result (a number, a list of detections, a dict); it may also save a visualisation next to the input.
- Available: numpy, cv2, PIL, matplotlib, skimage, and Argus's helpers (load_image, save_image, overlay_bounding_boxes, overlay_segmentation_masks, extract_frames_and_timestamps) via \`from argus import *\`.
- Use exactly the approach and parameters the plan says worked; do not invent new ones.
- The test calls the function on the person's file(s) (they are in the current directory) and prints the result.`;

/** The coder's system prompt; its function may call the same vision tools the planner used. */
export function coderSystem(catalogue: string): string {
  return catalogue ? `${CODER_SYSTEM}\n\nThe function may call these tools too (\`from argus import *\` imports them).\n${catalogue}` : CODER_SYSTEM;
}

export function planBrief(plan: PlanContext, files: string[]): string {
  return [
    `Plan:\n${plan.plan}`,
    `Instructions:\n${plan.instructions.map((s, i) => `${i + 1}. ${s}`).join("\n")}`,
    plan.code ? `Code from the planner:\n\`\`\`python\n${plan.code}\n\`\`\`` : "",
    `Files in the current directory: ${files.length ? files.join(", ") : "(none)"}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}

export function editBrief(feedback: string, code: string, test: string, files: string[]): string {
  return [
    `Change the existing code according to the person's request, in the fewest edits possible.`,
    `Request: ${feedback}`,
    `Current code:\n\`\`\`python\n${code}\n\`\`\``,
    test ? `Current test:\n\`\`\`python\n${test}\n\`\`\`` : "",
    `Files in the current directory: ${files.length ? files.join(", ") : "(none)"}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}
