import { argusArea } from "@/lib/server/areas";
import { json, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** The neural vision tools this server runs: name, signature, docstring and keyword arguments (JSON Schema). */
export const GET = route(async () => {
  const tools = argusArea("tools").vision.list().map(({ name, signature, doc, params }) => ({ name, signature, doc, params }));
  return json({ tools });
});
