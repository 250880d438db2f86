"use server";

import { headers } from "next/headers";
import { requestPasswordReset, type ForgotState } from "@/lib/session/forgot-password";

// Answered before the link is made (lib/session/forgot-password.ts): the same words and time for every address.
export async function forgotPasswordAction(_previous: ForgotState, formData: FormData): Promise<ForgotState> {
  const { state } = await requestPasswordReset(formData, await headers());
  return state;
}
