// Runs once when the server starts: validates the environment and opens the database before the first
// request, so a misconfigured deployment stops with one clear message instead of failing per request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { guardNodeRequests } = await import("@/lib/http/node-request-guard");
  guardNodeRequests();
  const { startServer } = await import("@/lib/server/start");
  await startServer();
}
