"use server";

import { headers } from "next/headers";
import { runSetup, type SetupState } from "@/lib/setup/first-organization";

// /setup's one action. Next's built-in Origin check (and proxy.ts) refuse cross-site posts.
export async function setupAction(_previous: SetupState, formData: FormData): Promise<SetupState> {
  return runSetup(formData, await headers());
}
