"use server";

import { revalidatePath } from "next/cache";
import { getSessionUser } from "@/lib/session/session";
import {
  createKeyForUser,
  DATABASE_UNAVAILABLE,
  refuseWhileDatabaseUnavailable,
  revokeKeyForUser,
  rollKeyForUser,
  unavailableCreateState,
  type CreateKeyState,
  type RevokeKeyState,
  type RollKeyState,
} from "@/lib/settings/api-key-actions";

// Server actions of /settings/api-keys. They authenticate by the session cookie only (an API key header is
// never read here) and rely on Next's built-in Origin check against cross-site posts.

export async function createApiKeyAction(_previous: CreateKeyState, formData: FormData): Promise<CreateKeyState> {
  const state = await refuseWhileDatabaseUnavailable(
    async () => createKeyForUser(await getSessionUser(), formData),
    () => unavailableCreateState(formData),
  );
  if (state.status === "created") revalidatePath("/settings/api-keys");
  return state;
}

export async function revokeApiKeyAction(_previous: RevokeKeyState, formData: FormData): Promise<RevokeKeyState> {
  const state = await refuseWhileDatabaseUnavailable(
    async () => revokeKeyForUser(await getSessionUser(), formData),
    () => ({ status: "error" as const, message: DATABASE_UNAVAILABLE }),
  );
  if (state.status === "revoked") revalidatePath("/settings/api-keys");
  return state;
}

export async function rollApiKeyAction(_previous: RollKeyState, formData: FormData): Promise<RollKeyState> {
  const state = await refuseWhileDatabaseUnavailable(
    async () => rollKeyForUser(await getSessionUser(), formData),
    () => ({ status: "error" as const, message: DATABASE_UNAVAILABLE }),
  );
  if (state.status === "rolled") revalidatePath("/settings/api-keys");
  return state;
}
