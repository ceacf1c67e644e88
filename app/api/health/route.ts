import { argusArea } from "@/lib/server/areas";
import { json, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  const health = await argusArea("status").health();
  return json(health, { status: health.ok ? 200 : 503 });
});
