import { randomUUID } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { ActionContext } from "@/lib/settings/action";
import { DATABASE_UNAVAILABLE, settingsAction, settingsFormAction } from "@/lib/settings/action";
import { singleFields } from "@/lib/settings/form-fields";
import { getDb } from "@/lib/db";
import { ApiError } from "@/lib/errors";
import { withEnv } from "../helpers/env";
import { form, user } from "../helpers/settings-forms";

// The settings kit's action pipeline (lib/settings/action.ts), on an action made for the test in the keys section:
// each step runs only once the one before it has let the request through, in the order session, role, form,
// change; a database that does not answer, wherever, is a sentence on the form; and the audit line says who did
// what. Its steps record themselves, so a test sees how far a request got.

const NOT_FOUND = "This thing does not exist in your organization.";

/** What the database driver throws when the server cannot be reached (lib/errors.ts knows Prisma's P1001). */
const unreachable = () => Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: "P1001" });

function probe(change: (input: { thingId: string }, context: ActionContext) => Promise<void> = async () => {}) {
  const reached: string[] = [];
  const contexts: ActionContext[] = [];
  const action = settingsAction({
    section: "api-keys",
    read: (formData) => {
      reached.push("form");
      return singleFields("thingId")(formData);
    },
    schema: z.object({ thingId: z.uuid() }),
    notFound: NOT_FOUND,
    run: async (input, context) => {
      reached.push("change");
      contexts.push(context);
      await change(input, context);
      return { status: "changed" as const, thingId: input.thingId };
    },
    audit: { action: "test.change", ids: ({ thingId }) => ({ thing_id: thingId }) },
  });
  return { action, reached, contexts };
}

const thing = () => form({ thingId: randomUUID() });

beforeAll(async () => {
  await getDb();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a settings action's order of checks", () => {
  it("reads nothing of a signed-out request: it says the session ended and how to go on", async () => {
    const { action, reached } = probe();
    expect(await action.forUser(null, thing())).toEqual({
      status: "error",
      message: "Your session has ended. Sign in again to manage API keys.",
    });
    expect(reached).toEqual([]);
  });

  it("refuses a role the section does not admit before reading the form", async () => {
    const { action, reached } = probe();
    expect(await action.forUser(await user("member@acme.example"), thing())).toEqual({
      status: "error",
      message: "Only founders and leads can manage API keys.",
    });
    expect(reached).toEqual([]);
  });

  it("makes no change from a form that does not parse: it reads as a thing the organization does not have", async () => {
    const { action, reached } = probe();
    const forms: Record<string, string | string[]>[] = [
      { thingId: "not-an-id" },
      {},
      { thingId: [randomUUID(), randomUUID()] },
    ];
    for (const fields of forms) {
      expect(await action.forUser(await user("lead@acme.example"), form(fields))).toEqual({
        status: "error",
        message: NOT_FOUND,
      });
    }
    expect(reached).toEqual(["form", "form", "form"]);
  });

  it("changes for the session's organization and as its user, whatever the form says", async () => {
    const { action, reached, contexts } = probe();
    const lead = await user("lead@globex.example");
    const id = randomUUID();
    const state = await action.forUser(lead, form({ thingId: id, organizationId: randomUUID(), userId: "x" }));
    expect(state).toEqual({ status: "changed", thingId: id });
    expect(reached).toEqual(["form", "change"]);
    expect(contexts[0]).toMatchObject({
      organizationId: lead.organization.id,
      actor: { userId: lead.userId, label: lead.name },
      user: { userId: lead.userId, role: "lead" },
    });
  });

  it("says a database that does not answer on the form, whether reading the session or making the change", async () => {
    const atSession = probe();
    expect(await atSession.action.forUser(Promise.reject(unreachable()), thing())).toEqual({
      status: "error",
      message: DATABASE_UNAVAILABLE,
    });
    expect(atSession.reached).toEqual([]);

    const atChange = probe(async () => {
      throw unreachable();
    });
    expect(await atChange.action.forUser(await user("founder@acme.example"), thing())).toEqual({
      status: "error",
      message: DATABASE_UNAVAILABLE,
    });
    expect(atChange.reached).toEqual(["form", "change"]);
  });

  it("says the change's own refusals in their words, an unknown id as not found, and lets anything else fail", async () => {
    const founder = await user("founder@acme.example");
    const refusing = (error: Error) =>
      probe(async () => {
        throw error;
      }).action.forUser(founder, thing());
    expect(await refusing(new ApiError("not_found", "No thing with this id exists in this organization."))).toEqual({
      status: "error",
      message: NOT_FOUND,
    });
    expect(await refusing(new ApiError("conflict", "This thing is revoked; create a new one instead."))).toEqual({
      status: "error",
      message: "This thing is revoked; create a new one instead.",
    });
    expect(await refusing(new ApiError("rate_limited", "This endpoint was pinged 10 times this hour."))).toEqual({
      status: "error",
      message: "This endpoint was pinged 10 times this hour.",
    });
    await expect(refusing(new ApiError("internal_error", "broken"))).rejects.toThrow("broken");
    await expect(refusing(new TypeError("a bug"))).rejects.toThrow("a bug");
  });

  it("logs one audit line per outcome: who, in which organization, which action on what, and why it was refused", async () => {
    const lines: Record<string, unknown>[] = [];
    const capture = (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>);
    vi.spyOn(console, "log").mockImplementation(capture);
    vi.spyOn(console, "error").mockImplementation(capture);
    const lead = await user("lead@acme.example");
    const member = await user("member@acme.example");
    const id = randomUUID();
    await withEnv({ SUNDOWN_LOG_LEVEL: "info" }, async () => {
      await probe().action.forUser(lead, form({ thingId: id }));
      await probe(async () => {
        throw new ApiError("conflict", "no");
      }).action.forUser(lead, form({ thingId: id }));
      await probe().action.forUser(member, form({ thingId: id }));
    });
    const who = { settings_action: "test.change", organization_id: lead.organization.id };
    expect(lines).toMatchObject([
      { level: "info", msg: "settings change", ...who, user_id: lead.userId, thing_id: id },
      { level: "warn", msg: "settings change refused", ...who, user_id: lead.userId, thing_id: id, reason: "conflict" },
      { level: "warn", msg: "settings change refused", ...who, user_id: member.userId, reason: "forbidden" },
    ]);
  });
});

describe("a settings form action", () => {
  const NOT_ADDED = "The thing was not added. Fix the fields marked below.";
  const addThing = (change: () => Promise<void> = async () => {}) =>
    settingsFormAction({
      section: "webhooks",
      read: (formData) => ({ url: formData.get("url"), tags: formData.getAll("tags") }),
      schema: z.object({
        url: z.string().trim().min(1, "enter the URL"),
        tags: z.array(z.string()).min(1, "choose at least one tag"),
      }),
      form: { fields: ["url", "tags"], echo: { url: "text", tags: "list" }, invalid: NOT_ADDED, invalidField: "url" },
      run: async ({ url }) => {
        await change();
        return { status: "added" as const, url };
      },
      audit: { action: "test.add" },
    });

  it("keeps what was typed and marks each field at fault with a sentence", async () => {
    const lead = await user("lead@acme.example");
    expect(await addThing().forUser(lead, form({ url: "  ", other: "x" }))).toEqual({
      status: "error",
      message: NOT_ADDED,
      fieldErrors: { url: "Enter the URL.", tags: "Choose at least one tag." },
      values: { url: "  ", tags: [] },
    });
  });

  it("puts the data layer's refusal of the field beside it, and any other refusal at the top", async () => {
    const lead = await user("lead@acme.example");
    const refusing = (error: ApiError) =>
      addThing(async () => {
        throw error;
      }).forUser(lead, form({ url: "http://x.example", tags: ["a", "b"] }));
    expect(await refusing(new ApiError("invalid_parameter", "Use an https:// URL."))).toEqual({
      status: "error",
      message: NOT_ADDED,
      fieldErrors: { url: "Use an https:// URL." },
      values: { url: "http://x.example", tags: ["a", "b"] },
    });
    expect(
      await refusing(new ApiError("conflict", "This organization has 20 endpoints, the most it may have.")),
    ).toEqual({
      status: "error",
      message: "This organization has 20 endpoints, the most it may have.",
      fieldErrors: {},
      values: { url: "http://x.example", tags: ["a", "b"] },
    });
  });

  it("keeps what was typed when it refuses the person, or the database does not answer", async () => {
    expect(await addThing().forUser(await user("member@acme.example"), form({ url: "https://a", tags: "t" }))).toEqual({
      status: "error",
      message: "Only founders and leads can manage webhooks.",
      fieldErrors: {},
      values: { url: "https://a", tags: ["t"] },
    });
    expect(await addThing().forUser(Promise.reject(unreachable()), form({ url: "https://a" }))).toEqual({
      status: "error",
      message: DATABASE_UNAVAILABLE,
      fieldErrors: {},
      values: { url: "https://a", tags: [] },
    });
  });
});
