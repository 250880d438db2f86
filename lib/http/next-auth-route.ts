import NextAuth from "next-auth";
import { ApiError } from "@/lib/errors";
import { getAuthOptions } from "@/lib/session/next-auth";
import { withRequest, type RequestContext } from "./with-request";

// next-auth's endpoints (/api/auth/*), narrowed to what sign-in uses and answered like every other API path: a
// request id, a log line, and the one JSON error shape for what next-auth would answer with a plain-text 400 or 500
// or serve at all when it should not:
// - `_log` takes any text from anyone and writes it to the server log at the level it names (next-auth/react's
//   client-side logger posts there; Sundown's pages do not use it): 404, as an unknown action.
// - `verify-request` belongs to e-mail sign-in links, which Sundown does not use: 404.
// - a GET on the credentials callback makes next-auth throw ("Callback for provider type credentials not
//   supported"): 405, the form posts there.
// - a JSON body that does not parse makes next-auth throw: 400.

/** The actions each method reaches in next-auth 4 (core/index.js), less those Sundown does not use. */
const ACTIONS: Record<string, ReadonlySet<string>> = {
  GET: new Set(["providers", "session", "csrf", "signin", "signout", "callback", "error"]),
  POST: new Set(["signin", "signout", "callback", "session"]),
};

/** The actions that name a provider in the path's next segment (signin/github, callback/credentials). */
const WITH_PROVIDER = new Set(["signin", "callback"]);

const noSuchEndpoint = () => new ApiError("not_found", "No such sign-in endpoint.");

function methodsServing(action: string): string[] {
  return Object.keys(ACTIONS).filter((method) => ACTIONS[method]!.has(action));
}

/** Why next-auth must not see this request, if it must not. */
function refusal(method: string, segments: readonly string[]): ApiError | undefined {
  const [action = "", providerId, ...rest] = segments;
  const methods = methodsServing(action);
  if (methods.length === 0 || rest.length > 0) return noSuchEndpoint();
  if (providerId !== undefined && !WITH_PROVIDER.has(action)) return noSuchEndpoint();
  if (!methods.includes(method)) {
    return new ApiError("method_not_allowed", `This sign-in endpoint takes ${methods.join(" or ")}.`, {
      headers: { Allow: methods.join(", ") },
    });
  }
  if (providerId === undefined) return undefined;
  // A provider's own id is in `options` until next-auth merges it (two credentials providers both read "credentials").
  const provider = getAuthOptions().providers.find(
    (p) => ((p as { options?: { id?: string } }).options?.id ?? p.id) === providerId,
  );
  if (!provider) return new ApiError("not_found", "No such sign-in provider.");
  if (provider.type === "credentials" && action === "callback" && method !== "POST") {
    return new ApiError("method_not_allowed", "Signing in with an email and password is a form POST to this URL.", {
      headers: { Allow: "POST" },
    });
  }
  return undefined;
}

function segmentsOf(context: RequestContext): string[] {
  const value = context.params.nextauth;
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

async function serveNextAuth(request: Request, context: RequestContext): Promise<Response> {
  const segments = segmentsOf(context);
  const refused = refusal(request.method, segments);
  if (refused) throw refused;
  try {
    return await NextAuth(
      request as never,
      { params: Promise.resolve({ nextauth: segments }) } as never,
      getAuthOptions(),
    );
  } catch (error) {
    // next-auth reads a JSON body with request.json(), which throws on one that does not parse.
    if (error instanceof SyntaxError) throw new ApiError("invalid_parameter", "The request body is not valid JSON.");
    throw error;
  }
}

/** GET and POST of app/api/auth/[...nextauth]: same-origin (no CORS), as sign-in is. */
export const nextAuthRoute = withRequest(serveNextAuth, { cors: false });
