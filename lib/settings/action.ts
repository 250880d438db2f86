import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { Actor } from "@/lib/data/activity";
import type { SessionUser } from "@/lib/data/users";
import { ApiError, isDatabaseUnavailable } from "@/lib/errors";
import { log } from "@/lib/log";
import { getSessionUser } from "@/lib/session/session";
import { requireSectionAccess, SectionAccessRefused } from "./section-access";
import { settingsSection, type SectionId } from "./sections";

// Every settings action is one pipeline, as dub's and formbricks' action clients compose theirs: the session (the
// user as the database says now; the cookie only, never an API key), the section's role rule, the form parsed by
// zod, the change, its audit line, and the section's pages revalidated. A database that does not answer, at any
// step, is said on the form instead of a 500. Pages post FormData through useActionState, so every form works
// before the page's JavaScript has loaded, and without it. The organization always comes from the session, never
// from the form: another organization's id reads as an unknown one.

/** What an action answers while the database does not (the API's 503, said on the page). */
export const DATABASE_UNAVAILABLE =
  "Sundown cannot reach its database right now, so nothing was changed. Try again in a moment.";

/** A refused action: what its form says. */
type Refused = { status: "error"; message: string };

/** A button's or dialog's state: nothing yet, refused, or `Done`, what its success carries back to the page. */
export type ActionState<Done> = { status: "idle" } | Refused | Done;

/** How a refused form echoes each field it was sent: one text, or every value of a repeated one (checkboxes). */
export type Echo = Record<string, "text" | "list">;
export type EchoedValues<E extends Echo> = { [Field in keyof E]: E[Field] extends "list" ? string[] : string };

/** A refused form: its message, the fields at fault, and what was typed, so nothing is lost. */
export interface FormRefused<Field extends string, E extends Echo> {
  status: "error";
  message: string;
  fieldErrors: Partial<Record<Field, string>>;
  values: EchoedValues<E>;
}

export type FormState<Done, Field extends string, E extends Echo> = { status: "idle" } | FormRefused<Field, E> | Done;

/** What a change is given besides its input: who makes it, for which organization, and when. */
export interface ActionContext {
  user: SessionUser;
  organizationId: string;
  /** The signed-in user as the activity trail records them (lib/data/activity.ts). */
  actor: Actor;
  now: Date;
}

export interface SettingsAction<State> {
  /**
   * Every step but reading the session and revalidating, for `user` as the database knows them (null: signed out),
   * or the read of them.
   */
  forUser(user: SessionUser | null | Promise<SessionUser | null>, formData: FormData, now?: Date): Promise<State>;
  /** The server action a page's form posts to: `export const createApiKeyAction = createKey.serve`. */
  serve(previous: State, formData: FormData): Promise<State>;
}

/** The state an action's form holds: `StateOf<typeof revokeKey>`. */
export type StateOf<Action> = Action extends SettingsAction<infer State> ? State : never;

type LogFields = Record<string, string>;

interface Steps<Input, Done extends { status: string }> {
  /** The section whose role rule guards the action, and whose pages it revalidates. */
  section: SectionId;
  /** The form's fields as the schema reads them (singleFields, or the form's own reading). */
  read: (formData: FormData) => unknown;
  /** The input's rules; a function when they depend on the time (an expiry in the future). */
  schema: z.ZodType<Input> | ((now: Date) => z.ZodType<Input>);
  /** The change itself: data-layer calls, scoped by `organizationId`; an ApiError refuses it (see below). */
  run: (input: Input, context: ActionContext) => Promise<Done>;
  /**
   * The audit line every outcome logs: the action's name ("api-keys.revoke"), the ids every line of it carries,
   * and what its success adds (a new key's id).
   */
  audit: { action: string; ids?: (input: Input) => LogFields; done?: (done: Done) => LogFields };
  /** Work that needs the request, once the change is made: e.g. starting a webhook delivery now. */
  after?: (done: Done) => void;
}

/** How a pipeline's refusals become a form's state. */
interface Say<R> {
  /** Signed out, a role the section does not admit, the database unavailable. */
  refused: (message: string) => R;
  invalid: (error: z.ZodError) => R;
  /** A client error (4xx) the change raised; undefined lets it fail loudly. */
  apiError: (error: ApiError) => R | undefined;
}

async function perform<Input, Done extends { status: string }, R>(
  steps: Steps<Input, Done>,
  readUser: () => Promise<SessionUser | null>,
  formData: FormData,
  now: Date,
  say: Say<R>,
): Promise<Done | R> {
  const audit: LogFields = { settings_action: steps.audit.action };
  try {
    const user = await readUser();
    if (user) Object.assign(audit, { organization_id: user.organization.id, user_id: user.userId });
    const admitted = requireSectionAccess(user, steps.section);
    const schema = typeof steps.schema === "function" ? steps.schema(now) : steps.schema;
    const parsed = schema.safeParse(steps.read(formData));
    if (!parsed.success) return say.invalid(parsed.error);
    Object.assign(audit, steps.audit.ids?.(parsed.data));
    const context = {
      user: admitted,
      organizationId: admitted.organization.id,
      actor: { userId: admitted.userId, label: admitted.name },
      now,
    };
    let done: Done;
    try {
      done = await steps.run(parsed.data, context);
    } catch (error) {
      const refusal = error instanceof ApiError && error.status < 500 ? say.apiError(error) : undefined;
      if (refusal === undefined) throw error;
      log("warn", "settings change refused", { ...audit, reason: (error as ApiError).code });
      return refusal;
    }
    log("info", "settings change", { ...audit, ...steps.audit.done?.(done) });
    return done;
  } catch (error) {
    if (error instanceof SectionAccessRefused) {
      // A member's post to a founders' action is worth a line; a session that ended is not.
      if (error.reason === "forbidden") log("warn", "settings change refused", { ...audit, reason: error.reason });
      return say.refused(error.message);
    }
    if (!isDatabaseUnavailable(error)) throw error;
    log("warn", "settings action refused: the database did not answer", {
      ...audit,
      error: (error as Error).message,
    });
    return say.refused(DATABASE_UNAVAILABLE);
  }
}

function settingsActionOf<Input, Done extends { status: string }, State extends { status: string }>(
  steps: Steps<Input, Done>,
  say: (formData: FormData) => Say<State>,
): SettingsAction<Done | State> {
  return {
    forUser: (user, formData, now = new Date()) => perform(steps, async () => user, formData, now, say(formData)),
    serve: async (_previous, formData) => {
      const state = await perform(steps, getSessionUser, formData, new Date(), say(formData));
      if (state.status !== "error") {
        revalidatePath(settingsSection(steps.section).href, "layout");
        steps.after?.(state as Done);
      }
      return state;
    },
  };
}

/**
 * An action on one thing (revoke a key, ping an endpoint): a form of hidden fields and a button, refused with one
 * sentence. A form that does not parse, like an id the organization does not have, reads as `notFound`, unless
 * `invalid` says better; the change's other client errors (a conflict, a limit reached) are said in their own
 * words.
 */
export function settingsAction<Input, Done extends { status: string }>(
  definition: Steps<Input, Done> & {
    notFound: string;
    invalid?: (error: z.ZodError) => string | undefined;
  },
): SettingsAction<ActionState<Done>> {
  const refused = (message: string): Refused => ({ status: "error", message });
  return settingsActionOf(definition, () => ({
    refused,
    invalid: (error) => refused(definition.invalid?.(error) ?? definition.notFound),
    apiError: (error) => refused(error.code === "not_found" ? definition.notFound : error.message),
  }));
}

/**
 * An action behind a form of fields (create a key, add an endpoint): refused with a message, an error beside each
 * field at fault (the first per field, as a sentence) and every field echoed back, so a refused form keeps what
 * was typed. The change's ApiError `invalid_parameter` is about `invalidField` (a URL the rules refuse); its other
 * client errors are said at the top of the form.
 */
export function settingsFormAction<Input, Done extends { status: string }, Field extends string, E extends Echo>(
  definition: Steps<Input, Done> & {
    form: {
      /** The fields a refusal can name, in the form's order. */
      fields: readonly Field[];
      echo: E;
      /** What a form with fields at fault says at its top, e.g. "The key was not created. Fix the fields marked below." */
      invalid: string;
      invalidField?: Field;
    };
  },
): SettingsAction<FormState<Done, Field, E>> {
  const { form } = definition;
  return settingsActionOf(definition, (formData) => {
    const refused = (message: string, fieldErrors: Partial<Record<Field, string>> = {}): FormRefused<Field, E> => ({
      status: "error",
      message,
      fieldErrors,
      values: echoValues(formData, form.echo),
    });
    return {
      refused,
      invalid: (error) => refused(form.invalid, fieldErrorsOf(error, form.fields)),
      apiError: (error) =>
        error.code === "invalid_parameter" && form.invalidField
          ? refused(form.invalid, { [form.invalidField]: error.message } as Partial<Record<Field, string>>)
          : refused(error.message),
    };
  });
}

/** Bounded: the echo goes back in the response, whatever was posted. */
const ECHO_MAX = 2048;

function echoValues<E extends Echo>(formData: FormData, echo: E): EchoedValues<E> {
  const strings = (name: string) => formData.getAll(name).filter((v): v is string => typeof v === "string");
  return Object.fromEntries(
    Object.entries(echo).map(([name, kind]) => [
      name,
      kind === "list" ? strings(name) : (strings(name)[0] ?? "").slice(0, ECHO_MAX),
    ]),
  ) as EchoedValues<E>;
}

/** The shared schemas' messages follow a flag on the CLI (`--events: choose…`); on a form each is a sentence. */
const sentence = (message: string) =>
  `${message.charAt(0).toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? "" : "."}`;

function fieldErrorsOf<Field extends string>(error: z.ZodError, fields: readonly Field[]) {
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as Field;
    if (fields.includes(field) && !errors[field]) errors[field] = sentence(issue.message);
  }
  return errors;
}
