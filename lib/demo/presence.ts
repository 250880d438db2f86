import { getDb } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { DEMO_ORGANIZATIONS } from "./data";

// What the home page, the sign-in page and the start banner tell a visitor to do first (issue 36): create the first
// organization when there is none; the demo's sign-ins only where the demo is (and its password is the documented
// one); else nothing demo-specific.

export type FirstSteps = "create-organization" | "demo" | "sign-in";

const DEMO_FOUNDER = `founder@${DEMO_ORGANIZATIONS[0]!.domain}`;

/** The command that creates the first organization, as the banner and the home page print it. */
export const CREATE_FIRST_ORGANIZATION =
  'npx sundown orgs create --slug <slug> --name "<name>" --founder-email <you@example.com>';

/** Where a visitor starts on this database; "sign-in" when the database cannot say. */
export async function firstSteps(): Promise<FirstSteps> {
  try {
    const db = await getDb();
    const [organizations, demoFounder] = await Promise.all([
      db.organization.count({ take: 1 }),
      db.user.findUnique({ where: { email: DEMO_FOUNDER }, select: { id: true } }),
    ]);
    if (organizations === 0) return "create-organization";
    return demoFounder && getEnv().SUNDOWN_DEMO_PASSWORD === "sundown-demo" ? "demo" : "sign-in";
  } catch {
    return "sign-in";
  }
}
