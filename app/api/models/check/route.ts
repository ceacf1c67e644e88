import { ModelCheckBody } from "@/lib/foundation/protocol/doctor";
import { argusArea } from "@/lib/server/areas";
import { json, readJson, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** Probe every role's model now (the doctor); at most once per 20 s. */
export const POST = route(async (req: Request) => {
  const hasBody = (req.headers.get("content-length") ?? "0") !== "0" || req.headers.has("content-type");
  if (hasBody) await readJson(req, ModelCheckBody);
  return json(await argusArea("status").modelCheck.run());
});
