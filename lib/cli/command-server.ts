import type { DbHandle } from "@/lib/db";

// Placeholder: the server's command channel for the CLI (see issue 2). Replaced by the real one.
export async function startCommandServer(_handle: DbHandle): Promise<void> {}
