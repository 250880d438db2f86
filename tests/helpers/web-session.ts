import http from "node:http";

// A browser's part in a web session, for process tests that drive a real server without one: raw HTTP, a cookie
// jar, and next-auth's credentials sign-in.

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Raw HTTP, so the Host header is exactly what the test says (fetch would set its own). */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

/** A browser's cookie jar, enough for next-auth's cookies on one host. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  take(reply: Reply): void {
    for (const line of reply.headers["set-cookie"] ?? []) {
      const [pair, ...attributes] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const expired = attributes.some((a) => /^\s*max-age=0$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(at + 1));
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  sessionCookie(): string | undefined {
    return [...this.cookies].find(([name]) => name.endsWith("next-auth.session-token"))?.join("=");
  }
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

export async function csrfToken(base: string, jar: CookieJar, headers: Record<string, string> = {}): Promise<string> {
  const reply = await send(`${base}/api/auth/csrf`, { headers: { ...headers, Cookie: jar.header() } });
  jar.take(reply);
  return (JSON.parse(reply.body) as { csrfToken: string }).csrfToken;
}

/** Signs in with the demo password, as the sign-in form does; the jar then holds the session's cookie. */
export async function signIn(base: string, email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const token = await csrfToken(base, jar);
  const reply = await send(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
    body: form({ csrfToken: token, email, password: "sundown-demo", callbackUrl: "/settings/api-keys", json: "true" }),
  });
  jar.take(reply);
  if (!jar.sessionCookie()) throw new Error(`sign-in failed: ${reply.status} ${reply.body}`);
  return jar;
}
