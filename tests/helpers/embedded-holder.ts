import { openEmbedded } from "@/lib/db";
import { acquireLock } from "@/lib/db/lock";
import { seedDemoOnFirstStart } from "@/lib/demo/first-start";

// A process that holds the embedded database in the directory it is given, as a server does: it opens it
// ("database"), or only takes its lock ("lock", quicker, where the database itself does not matter).
// Prints "ready <pid>" once it holds it, then waits to be killed. Run with `node --import tsx`.
async function main() {
  const [dataDir, mode] = process.argv.slice(2);
  if (mode === "lock") {
    if ("heldBy" in (await acquireLock(dataDir, "server"))) throw new Error("the lock is held by another process");
  } else {
    await seedDemoOnFirstStart(await openEmbedded(dataDir, "server"));
  }
  process.stdout.write(`ready ${process.pid}\n`);
  setInterval(() => {}, 60_000);
}

void main();
