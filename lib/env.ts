import path from "node:path";
import { z } from "zod";
import { parseAllowList } from "@/lib/webhook-allow-list";
import { PROJECT_ROOT } from "@/lib/project-root";

// Every setting Sundown reads, validated once. Feature code calls `getEnv()`, never reads `process.env`.

/**
 * How hot-path statements go to PostgreSQL: `named` (prepared once per connection), `unnamed` (parsed every
 * time: what a transaction-mode pooler needs), or `auto`: named until a pooler is detected or a named statement
 * is lost, then unnamed for the life of the process.
 */
export type StatementNaming = "auto" | "named" | "unnamed";

const optionalUrl = z.url().optional();
// The public address is printed in every discovery document, link header and start banner, and sent to browsers:
// a user name or password in it would be published with it.
const publicAddress = z
  .url()
  .refine((value) => !new URL(value).username && !new URL(value).password, {
    message:
      "must not contain a user name or password: it is printed in every link Sundown serves; protect the site another way",
  })
  .optional();
const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");
const flagDefaultOn = z
  .enum(["1", "0", "true", "false", "yes", "no"])
  .optional()
  .transform((v) => v === undefined || v === "1" || v === "true" || v === "yes");

// Comma-separated browser origins (scheme://host[:port]), kept in the form a browser sends in Origin.
const originList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const origins: string[] = [];
    for (const entry of (value ?? "")
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean)) {
      const url = URL.canParse(entry) ? new URL(entry) : undefined;
      const isOrigin =
        url &&
        (url.protocol === "https:" || url.protocol === "http:") &&
        url.origin === entry.replace(/\/$/, "").toLowerCase();
      if (!isOrigin) {
        ctx.addIssue({
          code: "custom",
          message: `"${entry}" is not an origin: use scheme://host[:port], e.g. https://inspector.example.com, no path`,
        });
        return z.NEVER;
      }
      origins.push(url.origin);
    }
    return origins;
  });

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// connection string")
    .optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(5),
  // The longest a query waits on PostgreSQL in all (a pool connection, then the statement, which the server
  // also cancels after this long): past it the API answers 503 with Retry-After instead of hanging.
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(3_000),
  // Hot-path reads as named prepared statements. Unset: named on a direct connection, unnamed through a
  // transaction-mode pooler (detected, lib/db/pooler.ts). Set, an override: on (named even where a pooler
  // is detected, e.g. PgBouncer 1.21+ with max_prepared_statements) or off (never named).
  DATABASE_PREPARED_STATEMENTS: z
    .enum(["1", "0", "true", "false", "yes", "no"])
    .optional()
    .transform((v): StatementNaming => {
      if (v === undefined) return "auto";
      return v === "1" || v === "true" || v === "yes" ? "named" : "unnamed";
    }),
  // Unset: the checkout's own .data, shared by the server and the CLI run from anywhere. Set: the user's
  // choice, a relative path being relative to the current directory, as whoever typed it expects.
  SUNDOWN_DATA_DIR: z.string().min(1).default(path.join(PROJECT_ROOT, ".data")),
  SUNDOWN_URL: publicAddress,
  // Next's own setting; Sundown reads it only for the development sign-in URL.
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  SUNDOWN_ALLOW_EMBEDDED: flag,
  // Seeds the demo organizations into an empty database at start-up (always so under `npm run dev`).
  SUNDOWN_DEMO: flag,
  // While set, /setup creates the first organization and its founder for whoever enters it (lib/setup).
  SUNDOWN_SETUP_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  // Invitation and password-reset links are also e-mailed when set: smtp://user:pass@host:587 or smtps://….
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional(),
  // The sender of those messages; unset, sundown@ the public URL's host name.
  SMTP_FROM: z.string().min(3).optional(),
  SUNDOWN_DEMO_PASSWORD: z.string().min(8, "must be at least 8 characters").default("sundown-demo"),
  SUNDOWN_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(120),
  SUNDOWN_ADDRESS_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(60),
  // Calls per ingest token per rolling minute to POST /ingest/v1 (each call may carry up to 10,000 reports).
  SUNDOWN_INGEST_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(60),
  // How long a request waits on the shared rate-limit store before it is counted in memory instead (unset: the
  // limiter's default, lib/ratelimit/limiter.ts).
  SUNDOWN_RATE_LIMIT_STORE_TIMEOUT_MS: z.coerce.number().int().min(10).max(10_000).optional(),
  SUNDOWN_TRUST_PROXY: flag,
  // Requests per key per day for the settings page and `keys list` (lib/usage/); off, nothing is counted.
  SUNDOWN_KEY_USAGE: flagDefaultOn,
  // How often each instance adds its counts to the database: one statement per instance per interval; the charts
  // trail the traffic by about as much.
  SUNDOWN_KEY_USAGE_FLUSH_SECONDS: z.coerce.number().int().min(1).max(3_600).default(60),
  SUNDOWN_MCP_ALLOWED_ORIGINS: originList,
  // Webhook targets that skip the public-address rule and may use plain http, for development and tests: host,
  // host:port, IP address or CIDR range, each matched exactly (lib/webhook-allow-list.ts says how); an entry that
  // could never match is refused here, by name.
  SUNDOWN_WEBHOOK_ALLOW_HOSTS: z
    .string()
    .optional()
    .transform((value, context) => {
      const { entries, errors } = parseAllowList(value);
      for (const message of errors) context.addIssue({ code: "custom", message });
      return entries;
    }),
  // Vercel Cron's bearer token for /api/cron/webhooks and /api/cron/reports; unset, they answer 404 (lib/http/cron/).
  CRON_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  SUNDOWN_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: z.string().min(1).optional(),
  NEXTAUTH_URL: publicAddress,
  NEXTAUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  // OAuth sign-in providers: each is switched on only when both of its variables are set.
  GITHUB_ID: z.string().min(1).optional(),
  GITHUB_SECRET: z.string().min(1).optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  VERCEL: z.string().optional(),
  AWS_LAMBDA_FUNCTION_NAME: z.string().optional(),
  NETLIFY: z.string().optional(),
});

export type Env = z.infer<typeof envSchema> & {
  /** Absolute path of the embedded database directory, or `memory://…`. */
  dataDir: string;
  /** True on a platform whose filesystem is read-only or per-invocation. */
  serverless: boolean;
};

export class EnvError extends Error {}

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  // Empty strings in .env files mean "unset", not "invalid".
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Sundown: invalid environment\n${lines.join("\n")}`);
  }
  const parsed = result.data;
  const serverless = Boolean(parsed.VERCEL || parsed.AWS_LAMBDA_FUNCTION_NAME || parsed.NETLIFY);
  if (serverless && !parsed.DATABASE_URL && !parsed.SUNDOWN_ALLOW_EMBEDDED) {
    throw new EnvError(
      "Sundown: DATABASE_URL is required on a serverless platform. The embedded database needs a writable, " +
        "long-lived disk; set DATABASE_URL to your PostgreSQL connection string (use the pooled one).",
    );
  }
  if (parsed.UPSTASH_REDIS_REST_URL && !parsed.UPSTASH_REDIS_REST_TOKEN) {
    throw new EnvError("Sundown: UPSTASH_REDIS_REST_URL is set but UPSTASH_REDIS_REST_TOKEN is not.");
  }
  // The embedded default persists a generated secret in its data directory; a PostgreSQL deployment has
  // no such place shared by all instances, so sessions would not survive a restart or another instance.
  if (parsed.NODE_ENV === "production" && parsed.DATABASE_URL && !parsed.NEXTAUTH_SECRET) {
    throw new EnvError(
      "Sundown: NEXTAUTH_SECRET is required in production with DATABASE_URL. Generate one with `openssl rand -base64 32`.",
    );
  }
  for (const [id, secret] of [
    ["GITHUB_ID", "GITHUB_SECRET"],
    ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
  ] as const) {
    if (Boolean(parsed[id]) !== Boolean(parsed[secret])) {
      throw new EnvError(`Sundown: ${id} and ${secret} must be set together (or neither).`);
    }
  }
  // `memory://` keeps the embedded database in memory (tests, throwaway demos).
  const dataDir = parsed.SUNDOWN_DATA_DIR.startsWith("memory://")
    ? parsed.SUNDOWN_DATA_DIR
    : path.resolve(parsed.SUNDOWN_DATA_DIR);
  return { ...parsed, dataDir, serverless };
}

/**
 * The public URL sign-in builds its links and redirects on: configuration only, never a request's Host
 * (which any client can forge). NEXTAUTH_URL, else SUNDOWN_URL's origin, else in development this machine.
 * Checked at start-up (lib/server/start.ts), not in parseEnv: `next build` and the CLI need no URL.
 */
export function signInUrl(env: Env): string {
  if (env.NEXTAUTH_URL) return env.NEXTAUTH_URL;
  if (env.SUNDOWN_URL) return new URL(env.SUNDOWN_URL).origin;
  if (env.NODE_ENV !== "production") return `http://localhost:${env.PORT}`;
  throw new EnvError(
    "Sundown: SUNDOWN_URL is required in production. Set SUNDOWN_URL to the address people open Sundown at, " +
      "e.g. SUNDOWN_URL=https://sundown.example.com (or http://localhost:3000 on this machine): sign-in builds its " +
      "links and redirects from it, never from the request's Host header. NEXTAUTH_URL, if set, is used for sign-in instead.",
  );
}

/** The address people and agents reach Sundown at: SUNDOWN_URL, else sign-in's origin (signInUrl). */
export function publicUrl(env: Env): string {
  return (env.SUNDOWN_URL ?? new URL(signInUrl(env)).origin).replace(/\/+$/, "");
}

let cached: Env | undefined;

/** The validated environment, parsed on first use. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** For tests that change process.env between cases. */
export function resetEnvCache(): void {
  cached = undefined;
}
