// Loaded by `npm start` (node --import) before Next.js: on Node 22.1 and later, V8's compiled code of the server's
// modules is kept in the build's cache directory, and a restart on the same build and Node reads it instead of
// compiling the modules again (compiling was the largest part of a cold start; bench/findings.md). Older Node has no
// compile cache and starts as before; a directory it cannot write only leaves the cache off.
import module from "node:module";
import path from "node:path";

module.enableCompileCache?.(path.join(process.env.SUNDOWN_DIST_DIR ?? ".next", "cache", "node-compile"));
