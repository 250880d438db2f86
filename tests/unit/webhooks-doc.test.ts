import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import ts from "typescript";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookPayloadSchema } from "@/lib/schemas/webhooks";
import { forbiddenAddressReason } from "@/lib/webhooks/address-rules";
import { parseAllowList } from "@/lib/webhook-allow-list";
import { checkEndpointUrl } from "@/lib/webhooks/endpoint-url";
import { renderBody } from "@/lib/webhooks/body";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_USER_AGENT } from "@/lib/schemas/webhook-events";
import { ATTEMPT_TIMEOUT_MS, FAILING_DISABLES_AFTER_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS } from "@/lib/webhooks/schedule";
import { RESPONSE_KEPT_BYTES } from "@/lib/webhooks/send";

// docs/webhooks.md tells receivers how to verify deliveries. Its TypeScript blocks are type-checked and run here
// against deliveries signed as lib/webhooks/deliver.ts signs them (standardwebhooks' sign over the body
// lib/webhooks/body.ts renders, one signature per secret in use), so a snippet that accepts a forged, altered or
// stale delivery, or refuses a good one, fails here. The page's example delivery, its retry table, its event list
// and its limits are held to the code the same way.

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOC = readFileSync(path.join(ROOT, "docs/webhooks.md"), "utf8");

const BLOCKS = [...DOC.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, body: m[2]! }));
const TS_BLOCKS = BLOCKS.filter((b) => b.lang === "ts").map((b) => b.body);

/** The page's section under a `## ` heading, up to the next one. */
function section(title: string): string {
  const start = DOC.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/webhooks.md has no "## ${title}" section`);
  const end = DOC.indexOf("\n## ", start + 1);
  return DOC.slice(start, end < 0 ? undefined : end);
}

/** The rows of the first markdown table in `text`, as trimmed cells, without the header and its rule. */
function tableRows(text: string): string[][] {
  const lines = text.split("\n").filter((l) => l.startsWith("|"));
  return lines.slice(2).map((l) =>
    l
      .slice(1, -1)
      .split("|")
      .map((c) => c.trim()),
  );
}

/** "5 s", "2 h 35 min", "1 d 7 h" → milliseconds. */
function duration(text: string): number {
  const units: Record<string, number> = { s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000 };
  const parts = [...text.matchAll(/(\d+)\s*(d|h|min|s)\b/g)];
  if (parts.length === 0) throw new Error(`not a duration: ${text}`);
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit!]!, 0);
}

// --- Running the page's snippets ------------------------------------------------------------------------------

const requireHere = createRequire(import.meta.url);

/** The snippet's diagnostics under strict TypeScript, with the DOM and Node types a route handler has. */
function typeErrors(source: string): string[] {
  const file = path.join(ROOT, "tests/unit/__webhooks-doc-snippet__.ts");
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: ["node"],
    esModuleInterop: true,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, language, ...rest) =>
    path.resolve(name) === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  const fileExists = host.fileExists;
  host.fileExists = (name) => path.resolve(name) === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))
    .filter(Boolean);
}

/** Compiles a snippet to CommonJS and runs it with this environment; returns its exports and what it logged. */
function load(source: string, env: Record<string, string> = {}) {
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  const cjs = { exports: {} as Record<string, unknown> };
  const logged: string[] = [];
  const quietConsole = { ...console, log: (...args: unknown[]) => logged.push(args.join(" ")) };
  new Function("require", "module", "exports", "process", "console", outputText)(
    requireHere,
    cjs,
    cjs.exports,
    { env },
    quietConsole,
  );
  return { exports: cjs.exports, logged };
}

/** A whsec_ secret as lib/auth/webhook-secret.ts makes them. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/** The request Sundown sends: the headers of lib/webhooks/deliver.ts, one signature per secret. */
function delivery(secrets: string[], body: string, { id = body ? JSON.parse(body).id : "x", at = new Date() } = {}) {
  return {
    body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": WEBHOOK_USER_AGENT,
      "webhook-id": id as string,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(" "),
    },
  };
}

const EVENT_BODY = renderBody(
  {
    id: "3f1c2b7a-8d94-4e21-b6a0-5c7d9e1f2a34",
    organizationId: "2a1e677f-c86b-43d3-a724-cede083932b9",
    type: "report.published",
    createdAt: new Date(),
    data: {
      report: {
        id: "e42fd8ad-d8e6-4bbe-8b1c-b56add297bd6",
        scope: "member",
        scope_target_id: "fc5a0ebe-3d47-440b-afd5-e1586aa76e17",
        generated_at: "2026-11-21T17:10:00.000Z",
        headline: "Liam O'Connor: 1 shipped — ünïcödé ✓",
      },
      url: "/api/v1/reports/e42fd8ad-d8e6-4bbe-8b1c-b56add297bd6",
    },
  },
  "https://sundown.example.com",
);

const MINUTE = 60_000;

/** Every way a delivery must be refused: [what, the request, the secret the receiver holds]. */
function refusals(secret: string) {
  const good = delivery([secret], EVENT_BODY);
  return [
    ["an altered body", { ...good, body: EVENT_BODY.replace("1 shipped", "9 shipped") }],
    ["another secret's signature", delivery([newSecret()], EVENT_BODY)],
    ["a timestamp 6 minutes old", delivery([secret], EVENT_BODY, { at: new Date(Date.now() - 6 * MINUTE) })],
    ["a timestamp 6 minutes ahead", delivery([secret], EVENT_BODY, { at: new Date(Date.now() + 6 * MINUTE) })],
    ["another webhook-id", { ...good, headers: { ...good.headers, "webhook-id": "another-id" } }],
    [
      "another webhook-timestamp",
      {
        ...good,
        headers: { ...good.headers, "webhook-timestamp": String(Number(good.headers["webhook-timestamp"]) - 1) },
      },
    ],
    ["no signature", { ...good, headers: { ...good.headers, "webhook-signature": "" } }],
    [
      "a v2 signature",
      {
        ...good,
        headers: { ...good.headers, "webhook-signature": good.headers["webhook-signature"].replace("v1,", "v2,") },
      },
    ],
  ] as const;
}

// --- The snippets -----------------------------------------------------------------------------------------------

const LIBRARY_SNIPPET = TS_BLOCKS.find((b) => b.includes('from "standardwebhooks"'));
const HMAC_SNIPPET = TS_BLOCKS.find((b) => b.includes('from "node:crypto"'));

afterEach(() => {
  vi.useRealTimers();
});

describe("docs/webhooks.md's verification snippets", () => {
  it("are on the page, and type-check under strict TypeScript", () => {
    expect(LIBRARY_SNIPPET).toBeDefined();
    expect(HMAC_SNIPPET).toBeDefined();
    for (const snippet of [LIBRARY_SNIPPET!, HMAC_SNIPPET!]) expect(typeErrors(snippet)).toEqual([]);
  }, 60_000);

  describe("the route handler with standardwebhooks", () => {
    const secret = newSecret();
    let POST: (request: Request) => Promise<Response>;
    let logged: string[];

    beforeAll(() => {
      const loaded = load(LIBRARY_SNIPPET!, { SUNDOWN_WEBHOOK_SECRET: secret });
      POST = loaded.exports.POST as typeof POST;
      logged = loaded.logged;
    });

    const post = (request: { body: string; headers: Record<string, string> }) =>
      POST(new Request("https://hooks.example.com/api/sundown-webhook", { method: "POST", ...request }));

    it("accepts a delivery Sundown signed, and reads its event", async () => {
      const response = await post(delivery([secret], EVENT_BODY));
      expect(response.status).toBe(204);
      expect(logged.at(-1)).toBe(`received report.published ${JSON.parse(EVENT_BODY).id}`);
    });

    it("accepts it during a secret roll's overlap, holding either secret", async () => {
      const other = newSecret();
      expect((await post(delivery([secret, other], EVENT_BODY))).status).toBe(204);
      expect((await post(delivery([other, secret], EVENT_BODY))).status).toBe(204);
    });

    for (const [what, request] of refusals(secret)) {
      it(`refuses ${what}, with a 4xx that is not 410`, async () => {
        const response = await post(request);
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.status).not.toBe(410);
      });
    }
  });

  describe("the HMAC check without a library", () => {
    const secret = newSecret();
    let verify: (secret: string, headers: Headers, body: string | Buffer) => boolean;

    beforeAll(() => {
      verify = load(HMAC_SNIPPET!).exports.verifySundownWebhook as typeof verify;
    });

    const check = (request: { body: string; headers: Record<string, string> }, asBuffer = false) =>
      verify(secret, new Headers(request.headers), asBuffer ? Buffer.from(request.body) : request.body);

    it("accepts a delivery Sundown signed, its body as text or as bytes", () => {
      expect(check(delivery([secret], EVENT_BODY))).toBe(true);
      expect(check(delivery([secret], EVENT_BODY), true)).toBe(true);
    });

    it("accepts it during a secret roll's overlap, holding either secret", () => {
      expect(check(delivery([newSecret(), secret], EVENT_BODY))).toBe(true);
      expect(check(delivery([secret, newSecret()], EVENT_BODY))).toBe(true);
    });

    it("agrees with standardwebhooks on a signature made by hand", () => {
      const at = new Date();
      const request = delivery([secret], EVENT_BODY, { at });
      expect(() => new Webhook(secret).verify(request.body, request.headers)).not.toThrow();
      expect(check(request)).toBe(true);
    });

    for (const [what, request] of refusals(secret)) {
      it(`refuses ${what}`, () => {
        expect(check(request)).toBe(false);
      });
    }
  });
});

// --- The example delivery ---------------------------------------------------------------------------------------

describe("docs/webhooks.md's example delivery", () => {
  const block = BLOCKS.find((b) => b.lang === "http")!.body;
  const [head, body] = [block.slice(0, block.indexOf("\n\n")), block.slice(block.indexOf("\n\n") + 2).trimEnd()];
  const headers = Object.fromEntries(
    head
      .split("\n")
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
  );
  const secrets = [...DOC.matchAll(/`(whsec_[A-Za-z0-9+/]{43}=)`/g)].map((m) => m[1]!);

  it("names the one example secret", () => {
    expect(new Set(secrets).size).toBe(1);
  });

  it("is signed with it, as Sundown signs", () => {
    const at = new Date(Number(headers["webhook-timestamp"]) * 1000);
    expect(headers["webhook-signature"]).toBe(new Webhook(secrets[0]!).sign(headers["webhook-id"]!, at, body));
    expect(Number(headers["content-length"])).toBe(Buffer.byteLength(body));
    expect(headers["content-type"]).toBe("application/json");
  });

  it("is a body lib/schemas/webhooks.ts accepts, byte for byte what lib/webhooks/body.ts renders", () => {
    const payload = webhookPayloadSchema.parse(JSON.parse(body));
    expect(payload.id).toBe(headers["webhook-id"]);
    expect(payload.type).toBe("report.published");
    if (payload.type !== "report.published") return;
    const url = new URL(payload.data.url);
    const rendered = renderBody(
      {
        id: payload.id,
        organizationId: payload.organization_id,
        type: payload.type,
        createdAt: new Date(payload.timestamp),
        data: { ...payload.data, url: url.pathname },
      },
      url.origin,
    );
    expect(rendered).toBe(body);
    expect(url.pathname).toBe(`/api/v1/reports/${payload.data.report.id}`);
  });

  it("is accepted by both snippets at the time it was signed, and refused 6 minutes later", async () => {
    const signedAt = Number(headers["webhook-timestamp"]) * 1000;
    const request = () =>
      new Request(`https://${headers.host}/hooks/sundown`, {
        method: "POST",
        headers: Object.fromEntries(Object.entries(headers).filter(([name]) => name !== "content-length")),
        body,
      });
    const POST = load(LIBRARY_SNIPPET!, { SUNDOWN_WEBHOOK_SECRET: secrets[0]! }).exports.POST as (
      r: Request,
    ) => Promise<Response>;
    const verify = load(HMAC_SNIPPET!).exports.verifySundownWebhook as (s: string, h: Headers, b: string) => boolean;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(signedAt + 1_000);
    expect((await POST(request())).status).toBe(204);
    expect(verify(secrets[0]!, request().headers, body)).toBe(true);
    vi.setSystemTime(signedAt + 6 * MINUTE);
    expect((await POST(request())).status).toBe(401);
    expect(verify(secrets[0]!, request().headers, body)).toBe(false);
  });
});

// --- The page against the code ----------------------------------------------------------------------------------

describe("docs/webhooks.md against lib/webhooks", () => {
  it("lists the events of lib/schemas/webhook-events.ts, then ping", () => {
    const events = tableRows(section("Events")).map((row) => row[0]!.replace(/`/g, ""));
    expect(events).toEqual([...WEBHOOK_EVENT_TYPES, "ping"]);
  });

  it("has the retry schedule of lib/webhooks/schedule.ts", () => {
    const rows = tableRows(section("Retries"));
    expect(rows.map((row) => Number(row[0]))).toEqual(Array.from({ length: MAX_ATTEMPTS }, (_, i) => i + 1));
    expect(rows[0]!.slice(1)).toEqual(["—", "—"]);
    const waits = rows.slice(1).map((row) => duration(row[1]!));
    expect(waits).toEqual([...RETRY_DELAYS_MS]);
    // The running total, to the minute.
    let total = 0;
    rows.slice(1).forEach((row, i) => {
      total += RETRY_DELAYS_MS[i]!;
      expect(Math.abs(duration(row[2]!) - total), row[2]).toBeLessThan(MINUTE);
    });
  });

  it("states the limits and the failing window of the code", () => {
    const page = DOC.replace(/\s+/g, " ");
    expect(page).toContain(`within ${ATTEMPT_TIMEOUT_MS / 1000} seconds`);
    expect(page).toContain(`| timeout | ${ATTEMPT_TIMEOUT_MS / 1000} seconds`);
    expect(page).toContain(`the first ${RESPONSE_KEPT_BYTES} bytes of the answer`);
    expect(page).toContain(`failed for ${FAILING_DISABLES_AFTER_MS / 3_600_000} hours`);
  });

  it("refuses every name and address its address table lists, and the allow-list lifts the refusals", () => {
    const rows = tableRows(section("Endpoint addresses"));
    const tokens = (row: string[]) => [...row[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    const names = tokens(rows.find((row) => row[0] === "internal host names")!);
    expect(names.length).toBeGreaterThan(3);
    for (const name of names) {
      const host = name.startsWith(".") ? `receiver${name}` : name;
      expect(checkEndpointUrl(`https://${host}/hook`, []), host).toHaveProperty("error");
      expect(checkEndpointUrl(`https://${host}/hook`, parseAllowList(host).entries), host).toHaveProperty("url");
    }
    // "Any IPv6 address outside `2000::/3`" names the one range that is not refused.
    const outside = (row: string[]) => [
      row[0]!,
      row[1]!.replace(/outside `([^`]+)`/, (_, range: string) => `outside ${range}`),
    ];
    expect(forbiddenAddressReason("4000::1")).toBeDefined();
    const addresses = rows
      .filter((row) => /address|range|metadata|IPv4 inside/.test(row[0]!))
      .map(outside)
      .flatMap(tokens);
    expect(addresses.length).toBeGreaterThan(20);
    for (const entry of addresses) {
      const address = entry.split("/")[0]!;
      expect(forbiddenAddressReason(address), entry).toBeDefined();
      const host = address.includes(":") ? `[${address}]` : address;
      expect(checkEndpointUrl(`https://${host}/hook`, []), entry).toHaveProperty("error");
    }
    expect(checkEndpointUrl("http://receiver.example.com/hook", [])).toHaveProperty("error");
    expect(checkEndpointUrl("http://localhost:4000/hook", parseAllowList("localhost:4000").entries)).toHaveProperty(
      "url",
    );
    expect(checkEndpointUrl("http://localhost:4000/hook", parseAllowList("localhost").entries)).toHaveProperty("error");
    expect(checkEndpointUrl("http://10.1.2.3/hook", parseAllowList("10.0.0.0/8").entries)).toHaveProperty("url");
    expect(checkEndpointUrl("https://receiver.example.com/hook", [])).toHaveProperty("url");
  });
});
