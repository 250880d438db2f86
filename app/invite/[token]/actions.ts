"use server";

import { holdLinkForProvider } from "@/lib/session/link-with-provider";

// Before "Continue with Google/GitHub" on a link's page: the token is kept in an HTTP-only cookie for the round trip
// (lib/session/link-with-provider.ts). Next's built-in Origin check (and proxy.ts) refuse cross-site posts.
export async function holdLink(token: string): Promise<boolean> {
  return holdLinkForProvider(typeof token === "string" ? token.slice(0, 200) : "");
}
