// next-auth reports sign-in failures as short codes (`?error=…` or `signIn()`'s `error`); people read these.
const MESSAGES: Record<string, string> = {
  CredentialsSignin: "Wrong email or password. Check both and try again.",
  RateLimited: "Too many sign-in attempts. Wait 15 minutes, then try again.",
  AccessDenied: "There is no Sundown account for that email address. Ask a founder or lead of your organization.",
  OAuthAccountNotLinked:
    "There is no Sundown account for that email address. Ask a founder or lead of your organization.",
  SessionRequired: "Sign in to continue.",
};

export function signInErrorMessage(code: string): string {
  return MESSAGES[code] ?? "Sign-in failed. Try again.";
}
