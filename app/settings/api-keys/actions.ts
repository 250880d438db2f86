"use server";

import { revalidatePath } from "next/cache";
import { getSessionUser } from "@/lib/auth/session";
import {
  createKeyForUser,
  revokeKeyForUser,
  rollKeyForUser,
  type CreateKeyState,
  type RevokeKeyState,
  type RollKeyState,
} from "@/lib/settings/api-key-actions";

// Server actions of /settings/api-keys. They authenticate by the session cookie only (an API key header is
// never read here) and rely on Next's built-in Origin check against cross-site posts.

export async function createApiKeyAction(_previous: CreateKeyState, formData: FormData): Promise<CreateKeyState> {
  const state = await createKeyForUser(await getSessionUser(), formData);
  if (state.status === "created") revalidatePath("/settings/api-keys");
  return state;
}

export async function revokeApiKeyAction(_previous: RevokeKeyState, formData: FormData): Promise<RevokeKeyState> {
  const state = await revokeKeyForUser(await getSessionUser(), formData);
  if (state.status === "revoked") revalidatePath("/settings/api-keys");
  return state;
}

export async function rollApiKeyAction(_previous: RollKeyState, formData: FormData): Promise<RollKeyState> {
  const state = await rollKeyForUser(await getSessionUser(), formData);
  if (state.status === "rolled") revalidatePath("/settings/api-keys");
  return state;
}
