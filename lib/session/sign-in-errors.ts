// next-auth reports sign-in failures as short codes (`?error=…` or `signIn()`'s `error`); people read these.
const MESSAGES: Record<string, string> = {
  CredentialsSignin: "Wrong email or password. Check both and try again.",
  RateLimited: "Too many sign-in attempts. Wait 15 minutes, then try again.",
  AccessDenied: "There is no Sundown account for that email address. Ask a founder or lead of your organization.",
  OAuthAccountNotLinked:
    "There is no Sundown account for that email address. Ask a founder or lead of your organization.",
  SessionRequired: "Sign in to continue.",
  // A one-time link's completion (lib/session/invitation-sign-in.ts).
  LinkUsed: "This link has been used already: each link works once. Sign in, or ask a founder or lead for a new link.",
  LinkExpired: "This link has expired: links work for 7 days. Ask a founder or lead for a new one.",
  LinkRevoked: "This link was revoked. Ask a founder or lead for a new one if you still need it.",
  LinkUnknown: "This link is not valid. Check that you copied all of it, or ask a founder or lead for a new one.",
  LinkOtherEmail: "This link was made for another e-mail address: sign in with the address it was sent to.",
  WeakPassword:
    "That password is too easy to guess. Use at least 12 characters, ideally several unrelated words, and nothing about you or your organization.",
  NameRequired: "Enter your name, as your team knows you.",
};

export function signInErrorMessage(code: string): string {
  return MESSAGES[code] ?? "Sign-in failed. Try again.";
}
