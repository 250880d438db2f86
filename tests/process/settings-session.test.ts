import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyActionRequest } from "../helpers/server-actions";
import { startServer, type RunningServer } from "../helpers/server";
import { CookieJar, csrfToken, form, send, signIn, type Reply } from "../helpers/web-session";

// Sign-in and sign-out through the real production server (`next start`): next-auth's own endpoints, the
// settings page and its server action, as a browser (or someone holding a copied cookie) reaches them.

const SLOW = 120_000;
const HOSTILE = "evil.example";

async function signOut(base: string, jar: CookieJar): Promise<Reply> {
  const token = await csrfToken(base, jar);
  const reply = await send(`${base}/api/auth/signout`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
    body: form({ csrfToken: token, callbackUrl: "/", json: "true" }),
  });
  jar.take(reply);
  return reply;
}

/** The sign-in form as the server rendered it, which is all a browser without JavaScript has. */
function renderedForm(html: string): { method: string; action: string; fields: Record<string, string> } {
  const start = html.search(/<form\b/);
  if (start < 0) throw new Error("no form on the page");
  const markup = html.slice(start, html.indexOf("</form>", start));
  const tag = markup.slice(0, markup.indexOf(">") + 1);
  const unescape = (text: string) =>
    text
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  const attribute = (name: string) => unescape(new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? "");
  const hidden = [...markup.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)];
  return {
    method: (attribute("method") || "get").toUpperCase(),
    action: attribute("action"),
    fields: Object.fromEntries(hidden.map(([, name, value]) => [name!, unescape(value!)])),
  };
}

/**
 * A browser with JavaScript off: one cookie jar per host, follows redirects, submits forms as rendered, and
 * records every request (`METHOD url`). It reaches the server at `server` whatever host a URL names.
 */
class PlainBrowser {
  readonly requests: string[] = [];
  private readonly jars = new Map<string, CookieJar>();

  constructor(private readonly server: string) {}

  private jar(host: string): CookieJar {
    if (!this.jars.has(host)) this.jars.set(host, new CookieJar());
    return this.jars.get(host)!;
  }

  /** Opens `url` and follows its redirects; returns where it ended and the last reply. */
  async open(url: string, method = "GET", body?: string): Promise<{ url: string; reply: Reply }> {
    for (let hops = 0; hops < 10; hops++) {
      this.requests.push(`${method} ${url}`);
      const target = new URL(url);
      const jar = this.jar(target.host);
      const reply = await send(`${this.server}${target.pathname}${target.search}`, {
        method,
        headers: {
          Host: target.host,
          Cookie: jar.header(),
          ...(body === undefined ? {} : { "Content-Type": "application/x-www-form-urlencoded" }),
        },
        body,
      });
      jar.take(reply);
      if (reply.status < 300 || reply.status >= 400 || !reply.headers.location) return { url, reply };
      url = new URL(reply.headers.location, url).toString();
      [method, body] = ["GET", undefined];
    }
    throw new Error(`too many redirects from ${url}`);
  }

  /** Opens the sign-in page at `url`, fills in its form and submits it the way it was rendered. */
  async signIn(url: string, email: string, password: string): Promise<{ url: string; reply: Reply }> {
    const page = await this.open(url);
    const { method, action, fields } = renderedForm(page.reply.body);
    const data = new URLSearchParams({ ...fields, email, password }).toString();
    const target = new URL(action, page.url);
    if (method === "POST") return this.open(target.toString(), "POST", data);
    target.search = data;
    return this.open(target.toString());
  }
}

/** Calls the settings page's create-key action as its form does. */
async function createKeyAction(base: string, cookie: string, name: string): Promise<Reply> {
  return send(`${base}/settings/api-keys`, { method: "POST", ...(await createKeyActionRequest(base, cookie, name)) });
}

describe("sign-in URLs in production", () => {
  it(
    "without SUNDOWN_URL or NEXTAUTH_URL, start-up stops and says what to set",
    async () => {
      const outcome = await startServer({ SUNDOWN_URL: undefined, NEXTAUTH_URL: undefined }).then(
        async (started) => {
          await started.stop();
          return "the server started";
        },
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(/^server exited early \(1\)[\s\S]*Set SUNDOWN_URL to the address people open Sundown at/);
    },
    SLOW,
  );
});

describe("with SUNDOWN_URL only", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ NEXTAUTH_URL: undefined });
  }, SLOW);

  afterAll(async () => {
    await server?.stop();
  });

  it(
    "no sign-in URL follows a hostile Host, X-Forwarded-Host or callbackUrl",
    async () => {
      const hostile = { Host: HOSTILE, "X-Forwarded-Host": HOSTILE, "X-Forwarded-Proto": "https" };
      const phish = `http://${HOSTILE}/phish`;
      const jar = new CookieJar();
      const token = await csrfToken(server.url, jar, hostile);
      const replies: Record<string, Reply> = {
        providers: await send(`${server.url}/api/auth/providers`, { headers: hostile }),
        csrf: await send(`${server.url}/api/auth/csrf`, { headers: hostile }),
        signinPage: await send(`${server.url}/api/auth/signin?${form({ callbackUrl: phish })}`, { headers: hostile }),
        signinProvider: await send(`${server.url}/api/auth/signin/credentials`, {
          method: "POST",
          headers: { ...hostile, "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
          body: form({ csrfToken: token, callbackUrl: phish, json: "true" }),
        }),
        wrongPassword: await send(`${server.url}/api/auth/callback/credentials`, {
          method: "POST",
          headers: { ...hostile, "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
          body: form({
            csrfToken: token,
            email: "founder@acme.example",
            password: "wrong",
            callbackUrl: phish,
            json: "true",
          }),
        }),
        signOut: await send(`${server.url}/api/auth/signout`, {
          method: "POST",
          headers: { ...hostile, "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
          body: form({ csrfToken: token, callbackUrl: phish, json: "true" }),
        }),
      };
      const signedIn = new CookieJar();
      const goodToken = await csrfToken(server.url, signedIn, hostile);
      replies.signIn = await send(`${server.url}/api/auth/callback/credentials`, {
        method: "POST",
        headers: { ...hostile, "Content-Type": "application/x-www-form-urlencoded", Cookie: signedIn.header() },
        body: form({
          csrfToken: goodToken,
          email: "lead@acme.example",
          password: "sundown-demo",
          callbackUrl: phish,
          json: "true",
        }),
      });

      expect(JSON.parse(replies.providers!.body).credentials.signinUrl).toBe(
        `${server.url}/api/auth/signin/credentials`,
      );
      // /settings, which leads each role on (a lead to API keys): never the hostile host.
      expect(JSON.parse(replies.signIn!.body)).toEqual({ url: `${server.url}/settings` });
      for (const [name, reply] of Object.entries(replies)) {
        expect(reply.status, name).toBeLessThan(500);
        const everything = JSON.stringify({ headers: reply.headers, body: reply.body });
        expect(everything, name).not.toContain(HOSTILE);
      }
    },
    SLOW,
  );

  it(
    "signs in through the rendered form as a browser without JavaScript does: a POST, no password in a URL or the log",
    async () => {
      const wrongPassword = "not-the-password-4711";
      const browser = new PlainBrowser(server.url);
      const failed = await browser.signIn(
        `${server.url}/signin?callbackUrl=%2Fsettings%2Fapi-keys%3Finactive%3Dall`,
        "founder@acme.example",
        wrongPassword,
      );
      expect(browser.requests).toContain(`POST ${server.url}/api/auth/callback/credentials`);
      expect(failed.url).toMatch(new RegExp(`^${server.url}/signin\\?.*error=CredentialsSignin`));
      expect(failed.reply.status).toBe(200);
      expect(failed.reply.body).toContain("Wrong email or password. Check both and try again.");

      // From the page the failure led to, the right password still goes where the visitor was going.
      const signedIn = await browser.signIn(failed.url, "founder@acme.example", "sundown-demo");
      expect(signedIn.url).toBe(`${server.url}/settings/api-keys?inactive=all`);
      expect(signedIn.reply.status).toBe(200);
      expect(signedIn.reply.body).toContain("Create a key");

      for (const request of browser.requests) expect(request).not.toMatch(/password|sundown-demo|4711/);
      expect(server.output()).not.toContain(wrongPassword);
    },
    SLOW,
  );

  it(
    "after sign-out, a copy of the session cookie neither opens the settings page nor creates a key",
    async () => {
      const jar = await signIn(server.url, "founder@acme.example");
      const copied = jar.sessionCookie()!;

      // While signed in, the cookie works for both: what is refused below is refused because of the sign-out.
      const page = await send(`${server.url}/settings/api-keys`, { headers: { Cookie: copied } });
      expect(page.status).toBe(200);
      expect(page.body).toContain("Create a key");
      const before = await createKeyAction(server.url, copied, "before-sign-out");
      expect(before.status).toBe(200);
      expect(before.body).toMatch(/sdn_sk_[0-9A-Za-z]{38}/);

      const out = await signOut(server.url, jar);
      expect(out.status).toBe(200);
      expect(jar.sessionCookie()).toBeUndefined();

      const pageAfter = await send(`${server.url}/settings/api-keys`, { headers: { Cookie: copied } });
      expect(pageAfter.status).toBe(307);
      expect(pageAfter.headers.location).toBe("/signin?callbackUrl=%2Fsettings%2Fapi-keys");
      const after = await createKeyAction(server.url, copied, "after-sign-out");
      expect(after.body).toContain("Your session has ended. Sign in again to manage API keys.");
      expect(after.body).not.toMatch(/sdn_sk_/);

      // Signing in again is a new session; the refused key was never written.
      const again = await signIn(server.url, "founder@acme.example");
      const listed = await send(`${server.url}/settings/api-keys`, { headers: { Cookie: again.sessionCookie()! } });
      expect(listed.status).toBe(200);
      expect(listed.body).toContain("before-sign-out");
      expect(listed.body).not.toContain("after-sign-out");
    },
    SLOW,
  );
});

describe("in development, without a configured URL", () => {
  let server: RunningServer;

  beforeAll(async () => {
    // `next start` with NODE_ENV=development: what decides the sign-in URL is lib/env.ts, as under `next dev`.
    server = await startServer({ NODE_ENV: "development", SUNDOWN_URL: undefined, NEXTAUTH_URL: undefined });
  }, SLOW);

  afterAll(async () => {
    await server?.stop();
  });

  it(
    "signs in from a page opened at 127.0.0.1: the sign-in page moves to localhost, where sign-in lives",
    async () => {
      const localhost = `http://localhost:${server.port}`;
      const browser = new PlainBrowser(server.url);
      const signedIn = await browser.signIn(
        `${server.url}/signin?callbackUrl=%2Fsettings%2Fapi-keys`,
        "lead@acme.example",
        "sundown-demo",
      );
      expect(browser.requests.slice(0, 3)).toEqual([
        `GET ${server.url}/signin?callbackUrl=%2Fsettings%2Fapi-keys`,
        `GET ${localhost}/signin?callbackUrl=%2Fsettings%2Fapi-keys`,
        `POST ${localhost}/api/auth/callback/credentials`,
      ]);
      expect(signedIn.url).toBe(`${localhost}/settings/api-keys`);
      expect(signedIn.reply.body).toContain("Create a key");
    },
    SLOW,
  );
});
