import { z } from "zod";
import { argusArea } from "@/lib/server/areas";
import { credentialsOf, json, parseWith, route } from "@/lib/server/http";
import { revokeFunctionToken } from "@/lib/features/sessions/function-tokens";
import { authorizeSession } from "@/lib/features/sessions/service";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string; tokenId: string }> };

const TokenId = z.string().uuid();

/** Revokes one function token: scripts using it get 403 from then on. */
export const DELETE = route(async (req: Request, { params }: Ctx) => {
  const area = argusArea("sessions");
  const p = await params;
  const session = await authorizeSession(area, p.id, credentialsOf(req));
  await revokeFunctionToken(area, session, parseWith(TokenId, p.tokenId));
  return json({ revoked: true });
});
