import { argusArea } from "@/lib/server/areas";
import { json, route } from "@/lib/server/http";
import { modelChoices } from "@/lib/engines/llm/model-choices";

export const dynamic = "force-dynamic";

/**
 * The models a chat may choose from, per role: what the endpoint lists (asked by the server with
 * its own key, which never reaches the browser) and each role's model on this server. 503 in
 * words when the endpoint cannot be asked.
 */
export const GET = route(async () => {
  const area = argusArea("models");
  return json(modelChoices(await area.endpointModels.list(), area.config.model.byRole));
});
