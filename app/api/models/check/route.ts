import { getArgus } from "@/lib/server/context";
import { json, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** Probe every role's model now (the doctor); at most once per 20 s. */
export const POST = route(async () => json(await getArgus().modelCheck.run()));
