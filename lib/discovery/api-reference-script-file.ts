// Where Scalar's browser build sits, for the route that serves it (lib/discovery/api-reference-script.ts) and for
// next.config.ts, which traces the file into deployments. A module of its own: next.config.ts loads it without the
// app's path aliases, so it imports nothing.
export const API_REFERENCE_SCRIPT_FILE = "node_modules/@scalar/api-reference/dist/browser/standalone.js";
