"use server";

import { headers } from "next/headers";
import { after } from "next/server";
import { requestPasswordReset, type ForgotState } from "@/lib/session/forgot-password";

// Answered before the link is made (lib/session/forgot-password.ts): the same words and time for every address. The
// link is made and mailed after the answer; `after` keeps a serverless function alive until it is.
export async function forgotPasswordAction(_previous: ForgotState, formData: FormData): Promise<ForgotState> {
  const { state, settled } = await requestPasswordReset(formData, await headers());
  after(() => settled);
  return state;
}
