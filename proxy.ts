import { NextResponse, type NextRequest } from "next/server";
import { newNonce, PAGE_HEADERS, pagePolicy } from "@/lib/server/page-policy";

/**
 * Every page gets a Content-Security-Policy with a fresh nonce. Next reads the nonce from the
 * request's policy header while it renders and puts it on its own scripts (pages are rendered
 * per request: `dynamic = "force-dynamic"`); the response carries the same policy.
 */
export function proxy(request: NextRequest): NextResponse {
  const policy = pagePolicy(newNonce(), { dev: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  for (const [name, value] of Object.entries(PAGE_HEADERS)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Pages only: the API answers JSON (files carry their own sandboxing policy), static assets need none.
  matcher: ["/((?!api/|_next/static/|_next/image|favicon).*)"],
};
