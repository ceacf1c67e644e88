import { getArgus } from "@/lib/server/context";
import { json, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  const health = await getArgus().health();
  return json(health, { status: health.ok ? 200 : 503 });
});
