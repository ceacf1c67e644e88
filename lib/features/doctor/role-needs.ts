/**
 * What each role asks of its model, read from the agents: which ones make tool calls
 * (`callTool`) and which ones send pictures. Only those checks decide a role's verdict.
 */
import type { ModelRole } from "@/lib/foundation/config";

export interface RoleNeeds {
  tools: boolean;
  images: boolean;
}

export const ROLE_NEEDS: Record<ModelRole, RoleNeeds> = {
  // reply({response, action})
  conversation: { tools: true, images: false },
  // execute_python … with the person's pictures and its own overlays
  planner: { tools: true, images: true },
  // write_code, write_test, fix_code
  coder: { tools: true, images: false },
  // vqa/describe answer in text about pictures; classify is a tool call
  vqa: { tools: true, images: true },
  // pick_tool, looking at the candidates on the person's image
  judge: { tools: true, images: true },
  // computer / goto / save_image / done, looking at each screenshot
  browser: { tools: true, images: true },
};

/** One model may serve several roles: probe what any of them needs. */
export function combinedNeeds(roles: readonly ModelRole[]): RoleNeeds {
  return {
    tools: roles.some((r) => ROLE_NEEDS[r].tools),
    images: roles.some((r) => ROLE_NEEDS[r].images),
  };
}
