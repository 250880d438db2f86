import type { SessionUser } from "@/lib/data/users";

export type KeyManager = SessionUser & { role: "founder" | "lead" };

export function canManageKeys(user: SessionUser): user is KeyManager {
  return user.role === "founder" || user.role === "lead";
}

export class KeyAccessError extends Error {
  constructor(
    readonly reason: "signed_out" | "forbidden",
    message: string,
  ) {
    super(message);
    this.name = "KeyAccessError";
  }
}

/** Only founders and leads manage their own organization's keys. Every settings action starts here. */
export function requireKeyManager(user: SessionUser | null): KeyManager {
  if (!user) throw new KeyAccessError("signed_out", "Your session has ended. Sign in again to manage API keys.");
  if (!canManageKeys(user)) throw new KeyAccessError("forbidden", "Only founders and leads can manage API keys.");
  return user;
}
