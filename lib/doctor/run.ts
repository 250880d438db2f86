import { EnvError, parseEnv, type Env } from "@/lib/env";
import {
  errorMessage,
  fail,
  pass,
  type Check,
  type CheckResult,
  type DoctorContext,
  type DoctorReport,
  type Verdict,
} from "./check";
import { DATABASE_CHECKS } from "./database-checks";
import { redact, secretsOf } from "./mask";
import { nodeVersionVerdict, supportedNodeRange } from "./node-version";
import { PEOPLE_CHECKS } from "./people-checks";
import { SIGN_IN_CHECKS } from "./sign-in";
import { STORE_CHECKS } from "./store-checks";
import { openDatabaseTarget, openStoreTarget } from "./targets";
import { WEBHOOK_CHECKS } from "./webhook-allow-list";

// `sundown doctor`: the environment and Node first, then, when the environment is valid, every check in
// this order, one at a time (the clock readings must not wait behind another check's query).

const CHECKS: readonly Check[] = [
  ...DATABASE_CHECKS,
  ...STORE_CHECKS,
  ...SIGN_IN_CHECKS,
  ...PEOPLE_CHECKS,
  ...WEBHOOK_CHECKS,
];

/** How long closing the connections may take: a connection still opening to a hung server is abandoned. */
const CLOSE_BOUND_MS = 1_000;

class OutOfTime extends Error {}

async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new OutOfTime()), ms)));
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function environmentVerdict(source: NodeJS.ProcessEnv): { verdict: Verdict; env?: Env } {
  try {
    const env = parseEnv(source);
    const mode =
      env.NODE_ENV === "production"
        ? "for production (NODE_ENV=production)"
        : `for ${env.NODE_ENV} (NODE_ENV is not production; \`npm start\` sets it, so run \`NODE_ENV=production sundown doctor\` to check a production configuration)`;
    return { env, verdict: pass(`valid, judged ${mode}`) };
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    const problems = error.message
      .replace(/^Sundown: (invalid environment\n)?/, "")
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    return {
      verdict: fail(
        problems.join("; "),
        "Correct the variables named; the database, store and URL checks run once the environment is valid.",
      ),
    };
  }
}

async function runCheck(check: Check, context: DoctorContext): Promise<CheckResult | null> {
  const bound = check.bound?.(context);
  let verdict: Verdict | null;
  try {
    const work = Promise.resolve(check.run(context));
    verdict = bound ? await within(work, bound.ms) : await work;
  } catch (error) {
    verdict =
      error instanceof OutOfTime && bound
        ? fail(
            `no answer from ${bound.waitsOn} within ${bound.ms} ms`,
            `Check that ${bound.waitsOn} is up and reachable from this machine.`,
          )
        : fail(
            `could not be checked: ${errorMessage(error)}`,
            "Fix what the message names, then run `sundown doctor` again.",
          );
  }
  return verdict && { name: check.name, ...verdict };
}

async function runChecks(env: Env, mailTo: string | undefined): Promise<CheckResult[]> {
  const context: DoctorContext = {
    env,
    database: await openDatabaseTarget(env),
    store: openStoreTarget(env),
    mailTo,
  };
  const results: CheckResult[] = [];
  try {
    for (const check of CHECKS) {
      const result = await runCheck(check, context);
      if (result) results.push(result);
    }
  } finally {
    const closing = [
      context.database.kind === "postgres" ? context.database.handle.close() : undefined,
      context.store.kind === "memory" ? undefined : context.store.close(),
    ];
    await within(Promise.allSettled(closing), CLOSE_BOUND_MS).catch(() => undefined);
  }
  return results;
}

/** Every check on the environment `source` (the one the server will get), secrets blanked out. */
export async function runDoctor(
  source: NodeJS.ProcessEnv,
  today = new Date(),
  { mailTo }: { mailTo?: string } = {},
): Promise<DoctorReport> {
  const { verdict, env } = environmentVerdict(source);
  const checks: CheckResult[] = [
    { name: "environment", ...verdict },
    { name: "node", ...nodeVersionVerdict(process.version, supportedNodeRange(), today) },
    ...(env ? await runChecks(env, mailTo) : []),
  ];
  const secrets = secretsOf(source);
  const blanked = checks.map(({ name, status, detail, fix }) => ({
    name,
    status,
    detail: redact(detail, secrets),
    ...(fix === undefined ? {} : { fix: redact(fix, secrets) }),
  }));
  return { ok: blanked.every((c) => c.status !== "fail"), checks: blanked };
}
