import type { NextRouteContext, RouteParams } from "@/lib/http/with-request";

type Handler = (request: Request, context?: NextRouteContext) => Promise<Response>;

/** Calls an exported route handler the way Next does. */
export async function call(handler: Handler, path: string, init: RequestInit = {}, params: RouteParams = {}) {
  const response = await handler(new Request(`http://localhost:3000${path}`, init), {
    params: Promise.resolve(params),
  });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body: body as any, text };
}
