// The doctor prints what it checked, and what it checked is full of credentials: passwords inside connection
// strings, the Upstash token, the session secret. URLs are printed masked; and as a second guard, for what a
// driver's error message might echo back, every secret value of the environment is blanked out of the
// report before it is printed.

const MASK = "****";

// Query parameters that carry a credential in a connection string (pg reads `password` from the query too).
const SECRET_PARAMS = /pass|secret|token|key/i;

/**
 * The URL with its password (and any credential in its query) replaced by ****, else exactly as written; for an
 * unparsable value, a placeholder.
 */
export function maskUrl(value: string): string {
  if (!URL.canParse(value)) return "(not a URL)";
  const url = new URL(value);
  const secretParams = [...url.searchParams.keys()].filter((name) => SECRET_PARAMS.test(name));
  if (!url.password && secretParams.length === 0) return value;
  if (url.password) url.password = MASK;
  for (const name of secretParams) url.searchParams.set(name, MASK);
  // Masked values stay readable: URLSearchParams would print **** as %2A%2A%2A%2A.
  return url.toString().replaceAll("%2A%2A%2A%2A", MASK);
}

const SECRET_VARIABLES = [
  "NEXTAUTH_SECRET",
  "UPSTASH_REDIS_REST_TOKEN",
  "GITHUB_SECRET",
  "GOOGLE_CLIENT_SECRET",
  "SUNDOWN_DEMO_PASSWORD",
  "CRON_SECRET",
  "SUNDOWN_SETUP_TOKEN",
] as const;
// Every URL the doctor reads. The public ones are refused with a password in them (lib/env.ts), but the refusal
// comes from the environment check, which must not print one either.
const URL_VARIABLES = [
  "DATABASE_URL",
  "REDIS_URL",
  "UPSTASH_REDIS_REST_URL",
  "SUNDOWN_URL",
  "NEXTAUTH_URL",
  "SMTP_URL",
] as const;

// Shorter values are not blanked: a 1-character password would blank every occurrence of that letter.
const MIN_SECRET_LENGTH = 4;

function credentialsInUrl(value: string): string[] {
  if (!URL.canParse(value)) return [value];
  const url = new URL(value);
  const found = [url.password, safeDecode(url.password)];
  for (const [name, param] of url.searchParams) if (SECRET_PARAMS.test(name)) found.push(param);
  return found;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Every credential in the environment: secret variables whole, and the passwords inside connection strings. */
export function secretsOf(source: Readonly<Record<string, string | undefined>>): string[] {
  const values = [
    ...SECRET_VARIABLES.map((name) => source[name] ?? ""),
    ...URL_VARIABLES.flatMap((name) => (source[name] ? credentialsInUrl(source[name]) : [])),
  ];
  // Longest first, so a secret that contains another is blanked whole.
  return [...new Set(values.filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

/** The text with every one of `secrets` replaced by ****. */
export function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.replaceAll(secret, MASK), text);
}
