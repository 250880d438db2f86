import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorEnv, runCli } from "../helpers/cli";
import { serverActionId } from "../helpers/server-actions";
import { startServer, tempDataDir, type RunningServer } from "../helpers/server";
import { CookieJar, csrfToken, form, send } from "../helpers/web-session";

// `npm start` on a new embedded database (issue 36): no demo seeded, its password printed nowhere, and the banner and
// home page say the one command that creates the first organization. With SUNDOWN_SETUP_TOKEN, /setup creates it:
// three claims at once make one organization and one founder, whose link opens.

const SETUP_TOKEN = "first-start-setup-token-0123456789";

/** Waits for the server to print its banner, which follows the database's first answer. */
async function bannerOf(server: RunningServer): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (!server.output().includes("  Rate-limit store: ") && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server.output();
}

/** Posts /setup's form as the page does (React's reply encoding: the fields under `_1_`, then the arguments). */
async function claimSetup(base: string, slug: string, origin = base): Promise<{ status: number; body: string }> {
  const data = new FormData();
  const fields = {
    token: SETUP_TOKEN,
    slug,
    name: `Org ${slug}`,
    founderName: "Sam",
    founderEmail: `sam@${slug}.example`,
  };
  for (const [name, value] of Object.entries(fields)) data.set(`_1_${name}`, value);
  data.set("0", JSON.stringify([{ status: "idle" }, "$K1"]));
  const encoded = new Response(data);
  const response = await fetch(`${base}/setup`, {
    method: "POST",
    headers: {
      "Next-Action": serverActionId("setupAction"),
      Accept: "text/x-component",
      Origin: origin,
      "Content-Type": encoded.headers.get("content-type")!,
    },
    body: new Uint8Array(await encoded.arrayBuffer()),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, body: await response.text() };
}

describe("npm start on an empty embedded database", () => {
  let server: RunningServer;
  const dataDir = tempDataDir();

  beforeAll(async () => {
    server = await startServer({ SUNDOWN_DEMO: "", SUNDOWN_DATA_DIR: dataDir, SUNDOWN_SETUP_TOKEN: SETUP_TOKEN });
  });
  afterAll(() => server?.stop());

  it("seeds nothing, and prints the command that creates the first organization, nothing of the demo", async () => {
    const banner = await bannerOf(server);
    expect(banner).toContain("No organization yet. Create the first");
    expect(banner).toContain('npx sundown orgs create --slug <slug> --name "<name>" --founder-email <you@example.com>');
    expect(banner).toContain(`(or open ${server.url}/setup with SUNDOWN_SETUP_TOKEN)`);
    expect(banner).not.toMatch(/sundown-demo|acme|Demo/);

    const home = await (await fetch(server.url)).text();
    expect(home).toContain("Create your organization");
    expect(home).toContain("npx sundown orgs create --slug &lt;slug&gt;");
    expect(home).not.toMatch(/sundown-demo|founder@acme/);
    const signIn = await (await fetch(`${server.url}/signin`)).text();
    expect(signIn).not.toMatch(/sundown-demo|founder@acme/);

    const orgs = await runCli(["orgs", "list", "--json"], operatorEnv({ SUNDOWN_DATA_DIR: dataDir, SUNDOWN_DEMO: "" }));
    expect(JSON.parse(orgs.stdout)).toEqual([]);
  });

  it("three /setup claims at once make one organization with one founder, whose link opens", async () => {
    expect((await fetch(`${server.url}/setup`)).status).toBe(200);
    // A post from another site is refused before anything runs.
    const crossSite = await claimSetup(server.url, "claim-evil", "https://evil.example");
    expect(crossSite.status).toBe(403);
    const claims = await Promise.all(["one", "two", "three"].map((slug) => claimSetup(server.url, `claim-${slug}`)));
    expect(claims.map((c) => c.status)).toEqual([200, 200, 200]);
    const answers = claims.map((c) => c.body);
    const created = answers.filter((a) => a.includes('"status":"created"'));
    expect(created).toHaveLength(1);
    expect(answers.filter((a) => a.includes("Sundown is already set up"))).toHaveLength(2);

    const orgs = await runCli(["orgs", "list", "--json"], operatorEnv({ SUNDOWN_DATA_DIR: dataDir, SUNDOWN_DEMO: "" }));
    const listed = JSON.parse(orgs.stdout) as { slug: string }[];
    expect(listed).toHaveLength(1);
    const invites = await runCli(
      ["invites", "list", "--org", listed[0]!.slug, "--json"],
      operatorEnv({ SUNDOWN_DATA_DIR: dataDir, SUNDOWN_DEMO: "" }),
    );
    expect(JSON.parse(invites.stdout)).toMatchObject([{ role: "founder", status: "pending" }]);

    const link = /"link":"([^"]+)"/.exec(created[0]!)![1]!;
    expect(link.startsWith(`${server.url}/invite/sdn_in_`)).toBe(true);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`Join Org ${listed[0]!.slug}`);
    // Opening it twice uses nothing up.
    expect(await (await fetch(link)).text()).toContain("Join");

    // The link page's form without JavaScript: a POST to next-auth's "invitation" provider.
    const token = link.slice(link.lastIndexOf("/") + 1);
    const complete = async (password: string) => {
      const jar = new CookieJar();
      const csrf = await csrfToken(server.url, jar);
      const reply = await send(`${server.url}/api/auth/callback/invitation`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
        body: form({ token, password, csrfToken: csrf, callbackUrl: "/settings" }),
      });
      jar.take(reply);
      return { location: String(reply.headers.location), session: jar.sessionCookie() };
    };
    const weak = await complete("password1234");
    expect(weak.location).toContain("error=WeakPassword");
    expect(weak.session).toBeUndefined();
    // Two tabs at once: exactly one is signed in, the other told the link was used.
    const [one, two] = await Promise.all([
      complete("violet tractor lunch orbit"),
      complete("amber canyon relay spoon"),
    ]);
    expect([one, two].filter((r) => r.session)).toHaveLength(1);
    expect([one, two].find((r) => !r.session)!.location).toContain("error=LinkUsed");
    expect([one, two].find((r) => r.session)!.location).toBe(`${server.url}/settings`);
    expect(await (await fetch(link)).text()).toContain("This link has been used");
  });
});
