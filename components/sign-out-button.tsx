import { nextAuthCsrfToken } from "@/lib/session/next-auth";

// A plain form posting to next-auth's sign-out, as the sign-in form posts to its sign-in: it works with
// JavaScript off and before the page's scripts have loaded, where a button wired up in the browser did nothing
// when clicked too early. next-auth checks the token against its CSRF cookie, which the proxy issues for every
// signed-in page, and answers with a redirect to the landing page.
export async function SignOutButton() {
  const csrfToken = await nextAuthCsrfToken();
  return (
    <form method="post" action="/api/auth/signout">
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value="/" />
      <button type="submit" className="button button--secondary button--small">
        Sign out
      </button>
    </form>
  );
}
