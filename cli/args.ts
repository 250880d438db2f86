import { parseArgs, type ParseArgsConfig } from "node:util";
import { SCOPES } from "@/lib/auth/scopes";
import {
  parseDeliveryId,
  parseEndpointId,
  parseEvents,
  parseExpiry,
  parseIngestTokenId,
  parseIngestTokenName,
  parseInvitation,
  parseInvitationId,
  parseNewOrganization,
  parseKeyId,
  parseKeyName,
  parseOverlap,
  parseDay,
  parseReportId,
  parseScopes,
  parseTimeZone,
  type CommandArgs,
} from "@/lib/cli/command-args";
import { UsageError } from "@/lib/cli/errors";
import { inputExcerpt } from "@/lib/text/input-excerpt";
import { EXPIRY_WARNING_DAYS } from "@/lib/data/key-status";
import { DEFAULT_KEY_EXPIRY } from "@/lib/schemas/key-expiry";
import { KEY_NAME_MAX } from "@/lib/schemas/key-name";
import { KEY_OVERLAP_CHOICES } from "@/lib/schemas/key-overlap";
import { WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhook-events";
import { FAILING_DISABLES_AFTER_MS } from "@/lib/webhooks/schedule";

// The command line → what to do. Pure: no I/O, so every bad form is a unit test away.

export type Invocation =
  | { kind: "help"; text: string; exitCode: 0 | 2 }
  | { kind: "keys.create"; args: CommandArgs<"keys.create">; json: boolean }
  | { kind: "keys.list"; args: CommandArgs<"keys.list">; json: boolean }
  | { kind: "keys.revoke"; args: CommandArgs<"keys.revoke"> }
  | { kind: "keys.roll"; args: CommandArgs<"keys.roll">; json: boolean }
  | { kind: "webhooks.create"; args: CommandArgs<"webhooks.create">; json: boolean }
  | { kind: "webhooks.list"; args: CommandArgs<"webhooks.list">; json: boolean }
  | { kind: "webhooks.disable"; args: CommandArgs<"webhooks.disable"> }
  | { kind: "webhooks.enable"; args: CommandArgs<"webhooks.enable"> }
  | { kind: "webhooks.delete"; args: CommandArgs<"webhooks.delete"> }
  | { kind: "webhooks.roll-secret"; args: CommandArgs<"webhooks.roll-secret">; json: boolean }
  | { kind: "webhooks.ping"; args: CommandArgs<"webhooks.ping"> }
  | { kind: "webhooks.deliveries"; args: CommandArgs<"webhooks.deliveries">; json: boolean }
  | { kind: "webhooks.redeliver"; args: CommandArgs<"webhooks.redeliver"> }
  | { kind: "orgs.list"; json: boolean }
  | { kind: "seed.demo" }
  | { kind: "reports.import"; org: string; file: string; replace: boolean; json: boolean }
  | { kind: "reports.delete"; args: CommandArgs<"reports.delete">; json: boolean }
  | { kind: "reports.duplicates"; args: CommandArgs<"reports.duplicates">; json: boolean }
  | { kind: "reports.generate"; args: CommandArgs<"reports.generate">; json: boolean }
  | { kind: "orgs.update"; args: CommandArgs<"orgs.update">; json: boolean }
  | { kind: "ingest-tokens.create"; args: CommandArgs<"ingest-tokens.create">; json: boolean }
  | { kind: "ingest-tokens.list"; args: CommandArgs<"ingest-tokens.list">; json: boolean }
  | { kind: "ingest-tokens.roll"; args: CommandArgs<"ingest-tokens.roll">; json: boolean }
  | { kind: "ingest-tokens.revoke"; args: CommandArgs<"ingest-tokens.revoke"> }
  | { kind: "orgs.create"; args: CommandArgs<"orgs.create">; json: boolean }
  | { kind: "invites.create"; args: CommandArgs<"invites.create">; json: boolean }
  | { kind: "invites.list"; args: CommandArgs<"invites.list">; json: boolean }
  | { kind: "invites.revoke"; args: CommandArgs<"invites.revoke"> }
  | { kind: "members.import"; org: string; file: string; dryRun: boolean; deactivateMissing: boolean; json: boolean }
  | { kind: "members.list"; args: CommandArgs<"members.list">; json: boolean }
  | { kind: "updates.import"; org: string; file: string; dryRun: boolean; json: boolean }
  | { kind: "members.export"; args: CommandArgs<"members.export">; output: string | null }
  | { kind: "db.migrate" }
  | { kind: "doctor"; json: boolean; mailTo?: string }
  | { kind: "mcp" };

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values = Record<string, string | boolean | undefined>;

interface CommandSpec {
  name: string;
  usage: string;
  summary: string;
  details: string[];
  options: Options;
  positionals: string[];
  build(values: Values, positionals: string[], now: Date): Invocation;
}

const json = { json: { type: "boolean" } } as const;

const ENDPOINT_ID = "<endpoint-id>  the endpoint's id, as `sundown webhooks list` shows it";
const DAY_MS = 86_400_000;

// Issue 37's commands: correcting reports, the organization's time zone, and the tokens of POST /ingest/v1/reports.
const REPORT_SPECS: CommandSpec[] = [
  {
    name: "reports delete",
    usage: "sundown reports delete <report-id> [--json]",
    summary: "Delete a report for good: REST, MCP and the report's page answer 404 from now on",
    details: ["<report-id>  the report's id, as GET /api/v1/reports and `reports import --json` show it"],
    options: { ...json },
    positionals: ["report-id"],
    build: (values, [id]) => ({
      kind: "reports.delete",
      args: { reportId: parseReportId(id!) },
      json: values.json === true,
    }),
  },
  {
    name: "reports duplicates",
    usage: "sundown reports duplicates [--org <slug|id>] [--json]",
    summary: "List reports that repeat another's scope, target and generated_at, stored before imports were idempotent",
    details: [
      "Without --org, how many each organization holds. With it, each duplicate and the report it repeats",
      "(the oldest of them, which imports match); both are served as before. Delete the ones you do not want",
      "with `sundown reports delete <report-id>`.",
      "--json      print the list as JSON",
    ],
    options: { org: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "reports.duplicates",
      args: typeof values.org === "string" ? { org: values.org } : {},
      json: values.json === true,
    }),
  },
  {
    name: "reports generate",
    usage: "sundown reports generate --org <slug|id> --date <YYYY-MM-DD> [--json]",
    summary: "Generate one day's member, lead and organization reports from people's updates, now and in place",
    details: [
      "The day's reports are stored as of its cutoff, in the organization's time zone; generating again replaces",
      "them in place (report.updated when they changed), whatever the grace period (docs/generation.md).",
      "--org       the organization",
      "--date      the day, in the organization's time zone",
      '--json      print {"organization","day","generated_at","counts":{scope:{"added","replaced","unchanged",',
      '            "deleted"}},"reports":[{"scope","scope_target_id","id","outcome"}]}',
    ],
    options: { org: { type: "string" }, date: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "reports.generate",
      args: { org: requireOption(values, "org"), date: parseDay(requireOption(values, "date")) },
      json: values.json === true,
    }),
  },
];

const ORGANIZATION_SPECS: CommandSpec[] = [
  {
    name: "orgs create",
    usage: "sundown orgs create --slug <slug> --name <name> --founder-email <email> [--founder-name <name>] [--json]",
    summary: "Create an organization and its founder; prints the founder's one-time link to set a password",
    details: [
      "--slug           how commands name it, e.g. acme (lower-case letters, digits, single hyphens)",
      "--name           its display name",
      "--founder-email  the founder's address: the only one that may use the link (and where it is e-mailed",
      "                 when SMTP_URL is set)",
      "--founder-name   the founder's name on the roster (default: the address before the @)",
      "The link is built on SUNDOWN_URL (or NEXTAUTH_URL), works once and expires after 7 days; make another",
      "with `sundown invites create`.",
      '--json           print {"organization","member","invitation_id","link","expires_at","mail","mail_error"}',
    ],
    options: {
      slug: { type: "string" },
      name: { type: "string" },
      "founder-email": { type: "string" },
      "founder-name": { type: "string" },
      ...json,
    },
    positionals: [],
    build: (values) => ({
      kind: "orgs.create",
      args: parseNewOrganization({
        slug: requireOption(values, "slug"),
        name: requireOption(values, "name"),
        founderEmail: requireOption(values, "founder-email"),
        founderName: typeof values["founder-name"] === "string" ? values["founder-name"] : undefined,
      }),
      json: values.json === true,
    }),
  },
  {
    name: "orgs update",
    usage: "sundown orgs update <slug|id> --time-zone <IANA name> [--json]",
    summary: "Set an organization's time zone (default UTC)",
    details: [
      "--time-zone  an IANA name such as America/Los_Angeles, Europe/Berlin or UTC; aliases are stored under",
      "             their canonical name",
      '--json       print {"organization","time_zone","previous_time_zone"} only',
    ],
    options: { "time-zone": { type: "string" }, ...json },
    positionals: ["org"],
    build: (values, [org]) => ({
      kind: "orgs.update",
      args: { org: org!, timeZone: parseTimeZone(requireOption(values, "time-zone")) },
      json: values.json === true,
    }),
  },
];

// Issue 36's roster commands (lib/cli/member-commands.ts).
const MEMBER_SPECS: CommandSpec[] = [
  {
    name: "members import",
    usage: "sundown members import <file.csv|file.json|-> --org <slug|id> [--dry-run] [--deactivate-missing] [--json]",
    summary: "Bring the roster in from a CSV or JSON file (- for stdin): checked whole, all or nothing",
    details: [
      "file        CSV with the header name,email,role,department,external,active (any order; name, email and",
      "            role required), plus chat and phone columns, each as often as needed; an id column (as",
      "            `members export` writes it) is ignored. JSON: an array of objects with the same fields (or",
      '            { "members": [...] }), chat and phone a string or an array. A .json name, or a file starting',
      "            with [ or {, is read as JSON. At most 2000 people and 1 MB",
      "            people are matched by email, ignoring case: the same file again changes nothing, a changed",
      "            row updates that person; a column the file leaves out keeps what is stored",
      "--org       the organization the roster belongs to",
      "--dry-run   check the file and count what it would change; write nothing",
      "--deactivate-missing   deactivate the active people the file does not name (never deleted)",
      '--json      print {"added","updated","unchanged","deactivated","dry_run","people":[{"row","id","name",',
      '            "change"}],"problems":[{"row","field","message"}]|null,"organization"} only; exit 1 with problems',
    ],
    options: {
      org: { type: "string" },
      "dry-run": { type: "boolean" },
      "deactivate-missing": { type: "boolean" },
      ...json,
    },
    positionals: ["file"],
    build: (values, [file]) => ({
      kind: "members.import",
      org: requireOption(values, "org"),
      file: file!,
      dryRun: values["dry-run"] === true,
      deactivateMissing: values["deactivate-missing"] === true,
      json: values.json === true,
    }),
  },
  {
    name: "members list",
    usage: "sundown members list --org <slug|id> [--json]",
    summary: "List the roster: ids, names, addresses, roles, departments, active or not",
    details: [
      '--json      print {"members":[{"id","name","email","role","department","external","active","chat":[],',
      '            "phone":[]}],"organization"}',
    ],
    options: { org: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "members.list",
      args: { org: requireOption(values, "org") },
      json: values.json === true,
    }),
  },
  {
    name: "members export",
    usage: "sundown members export --org <slug|id> [--output <file>]",
    summary: "Write the roster as CSV with member ids (report files' scope_target_id), which the import takes back",
    details: ["--output    the file to write (replaced if it exists); without it, standard output"],
    options: { org: { type: "string" }, output: { type: "string" } },
    positionals: [],
    build: (values) => ({
      kind: "members.export",
      args: { org: requireOption(values, "org") },
      output: typeof values.output === "string" ? values.output : null,
    }),
  },
];

// Issue 38's way in for people's updates from files (lib/cli/update-commands.ts; docs/updates.md).
const UPDATE_SPECS: CommandSpec[] = [
  {
    name: "updates import",
    usage: "sundown updates import <file.csv|file.json|-> --org <slug|id> [--dry-run] [--json]",
    summary: "Bring people's daily updates and absences in from a CSV or JSON file (- for stdin): all or nothing",
    details: [
      "file        CSV with the header date,email,section,text (any order; member_id may stand for email), one",
      "            item a row; section is shipped, slipping, blocker, kpi or note, or away for an absence;",
      "            optional columns reason and due (slipping), value and unit (kpi), until (away: the last day).",
      "            All rows of one person and date make that person's whole update for the day.",
      '            JSON: { "updates": [{ "date", "email"|"member_id", "shipped", "slipping", "blockers", "kpis",',
      '            "note" }], "absences": [{ "email"|"member_id", "from", "to" }] }. A .json name, or a file',
      "            starting with { or [, is read as JSON. At most 10000 rows and 5 MB",
      "            a person's day written again replaces it; the same file again changes nothing. Days after today",
      "            (the organization's time zone) are refused; KPI values only from founders and leads",
      "--org       the organization the people belong to",
      "--dry-run   check the file and count what it would change; write nothing",
      '--json      print {"updates":{"added","unchanged","replaced"},"absences":{"added","unchanged"},"dry_run",',
      '            "problems":[{"row","field","message"}]|null,"organization"} only; exit 1 with problems',
    ],
    options: { org: { type: "string" }, "dry-run": { type: "boolean" }, ...json },
    positionals: ["file"],
    build: (values, [file]) => ({
      kind: "updates.import",
      org: requireOption(values, "org"),
      file: file!,
      dryRun: values["dry-run"] === true,
      json: values.json === true,
    }),
  },
];

const INVITATION_SPECS: CommandSpec[] = [
  {
    name: "invites create",
    usage: "sundown invites create --org <slug|id> --email <email> --role founder|lead|member [--json]",
    summary: "Make a one-time link to sign in (or, for someone who signs in already, to reset their password)",
    details: [
      "--org       the organization (slug or id)",
      "--email     the only address that may use the link; e-mailed there too when SMTP_URL is set",
      "--role      the role the person has once they use it",
      "The link works once, expires after 7 days, and replaces the address's earlier pending link.",
      "--json      print the invitation with its link (shown this once)",
    ],
    options: { org: { type: "string" }, email: { type: "string" }, role: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "invites.create",
      args: parseInvitation({
        org: requireOption(values, "org"),
        email: requireOption(values, "email"),
        role: requireOption(values, "role"),
      }),
      json: values.json === true,
    }),
  },
  {
    name: "invites list",
    usage: "sundown invites list --org <slug|id> [--json]",
    summary: "List an organization's one-time links (pending first), never the links themselves",
    details: ["--json      print a JSON array of invitations"],
    options: { org: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "invites.list",
      args: { org: requireOption(values, "org") },
      json: values.json === true,
    }),
  },
  {
    name: "invites revoke",
    usage: "sundown invites revoke <invitation-id>",
    summary: "Revoke a pending one-time link: it says so to whoever opens it",
    details: ["<invitation-id>  the invitation's id, as `sundown invites list` shows it"],
    options: {},
    positionals: ["invitation-id"],
    build: (_values, [id]) => ({ kind: "invites.revoke", args: { invitationId: parseInvitationId(id!) } }),
  },
];

const TOKEN_ID = "<token-id>  the token's id, as `sundown ingest-tokens list` shows it";

const INGEST_TOKEN_SPECS: CommandSpec[] = [
  {
    name: "ingest-tokens create",
    usage: "sundown ingest-tokens create --org <slug|id> --name <name> [--json]",
    summary: "Mint a token for POST /ingest/v1/reports; the token is shown once",
    details: [
      `--org       the organization the token sends reports into (slug or id)`,
      `--name      what sends with it, e.g. "standup-bot" (1-${KEY_NAME_MAX} printable characters)`,
      `--json      print {"id","token","name","hint","organization":{"id","slug","name"},"created_at"} only`,
    ],
    options: { org: { type: "string" }, name: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "ingest-tokens.create",
      args: { org: requireOption(values, "org"), name: parseIngestTokenName(requireOption(values, "name")) },
      json: values.json === true,
    }),
  },
  {
    name: "ingest-tokens list",
    usage: "sundown ingest-tokens list --org <slug|id> [--json]",
    summary: "List an organization's ingest tokens (never their secrets)",
    details: [
      "STATUS      active, rolled (works until its overlap ends) or revoked",
      "--json      print a JSON array of tokens",
    ],
    options: { org: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "ingest-tokens.list",
      args: { org: requireOption(values, "org") },
      json: values.json === true,
    }),
  },
  {
    name: "ingest-tokens roll",
    usage: `sundown ingest-tokens roll <token-id> [--overlap <${KEY_OVERLAP_CHOICES.join("|")}>] [--json]`,
    summary: "Replace a token with a new secret; the old one keeps working for the overlap",
    details: [
      TOKEN_ID,
      `--overlap   how long the old token keeps working: ${KEY_OVERLAP_CHOICES.join(", ")}; default 0 (it stops now)`,
      "--json      print the new token as `ingest-tokens create --json` does",
    ],
    options: { overlap: { type: "string" }, ...json },
    positionals: ["token-id"],
    build: (values, [id]) => ({
      kind: "ingest-tokens.roll",
      args: {
        tokenId: parseIngestTokenId(id!),
        overlap: parseOverlap(typeof values.overlap === "string" ? values.overlap : "0"),
      },
      json: values.json === true,
    }),
  },
  {
    name: "ingest-tokens revoke",
    usage: "sundown ingest-tokens revoke <token-id>",
    summary: "Revoke a token; the ingest endpoint refuses it from the next request on",
    details: [TOKEN_ID],
    options: {},
    positionals: ["token-id"],
    build: (_values, [id]) => ({ kind: "ingest-tokens.revoke", args: { tokenId: parseIngestTokenId(id!) } }),
  },
];

const COMMAND_SPECS: CommandSpec[] = [
  {
    name: "keys create",
    usage: "sundown keys create --org <slug|id> --name <name> --scopes <scope,…> [--expires <date>] [--json]",
    summary: "Mint an API key; the key is shown once",
    details: [
      `--org       the organization (slug or id), see \`sundown orgs list\``,
      `--name      what the key is for, e.g. "nightly-digest" (1-${KEY_NAME_MAX} printable characters)`,
      `--scopes    comma-separated: ${SCOPES.join(", ")}`,
      `--expires   2026-12-31 (00:00 UTC that day), 2026-12-31T18:00:00Z, 30d (days from now) or never;`,
      `            default: ${DEFAULT_KEY_EXPIRY}, as the settings page preselects`,
      `--json      print {"id","key","name","scopes","organization":{"id","slug","name"}} only`,
    ],
    options: {
      org: { type: "string" },
      name: { type: "string" },
      scopes: { type: "string" },
      expires: { type: "string" },
      ...json,
    },
    positionals: [],
    build: (values, _positionals, now) => ({
      kind: "keys.create",
      args: {
        org: requireOption(values, "org"),
        name: parseKeyName(requireOption(values, "name")),
        scopes: parseScopes(requireOption(values, "scopes")),
        expiresAt:
          parseExpiry(typeof values.expires === "string" ? values.expires : undefined, now)?.toISOString() ?? null,
      },
      json: values.json === true,
    }),
  },
  {
    name: "keys list",
    usage: "sundown keys list --org <slug|id> [--json]",
    summary: "List an organization's keys (never their secrets)",
    details: [
      `STATUS      active, rolled (works until its overlap ends), revoked or expired; keys that expire within`,
      `            ${EXPIRY_WARNING_DAYS} days are flagged "expires in N days"`,
      "--json      print a JSON array of keys",
    ],
    options: { org: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({ kind: "keys.list", args: { org: requireOption(values, "org") }, json: values.json === true }),
  },
  {
    name: "keys revoke",
    usage: "sundown keys revoke <key-id>",
    summary: "Revoke a key; the API refuses it from the next request on",
    details: ["<key-id>    the key's id, as `sundown keys list` shows it"],
    options: {},
    positionals: ["key-id"],
    build: (_values, [keyId]) => ({ kind: "keys.revoke", args: { keyId: parseKeyId(keyId!) } }),
  },
  {
    name: "keys roll",
    usage: `sundown keys roll <key-id> --overlap <${KEY_OVERLAP_CHOICES.join("|")}> [--json]`,
    summary: "Replace a key with a new secret; the old one keeps working for the overlap",
    details: [
      "<key-id>    the key's id, as `sundown keys list` shows it; the new key has its name, scopes and expiry",
      `--overlap   how long the old key keeps working: ${KEY_OVERLAP_CHOICES.join(", ")} (0: it stops now)`,
      `--json      print the new key as \`keys create --json\` does`,
    ],
    options: { overlap: { type: "string" }, ...json },
    positionals: ["key-id"],
    build: (values, [keyId]) => ({
      kind: "keys.roll",
      args: { keyId: parseKeyId(keyId!), overlap: parseOverlap(requireOption(values, "overlap")) },
      json: values.json === true,
    }),
  },
  {
    name: "webhooks create",
    usage: "sundown webhooks create --org <slug|id> --url <url> --events <event,…> [--json]",
    summary: "Add a webhook endpoint; its signing secret is shown once",
    details: [
      `--org       the organization (slug or id), see \`sundown orgs list\``,
      "--url       where deliveries are POSTed: https, to a public address (hosts in SUNDOWN_WEBHOOK_ALLOW_HOSTS may",
      "            use http and private addresses); checked, host resolved, before anything is saved",
      `--events    comma-separated: ${WEBHOOK_EVENT_TYPES.join(", ")}`,
      `--json      print {"id","url","events","secret","organization":{"id","slug","name"}} only`,
    ],
    options: { org: { type: "string" }, url: { type: "string" }, events: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "webhooks.create",
      args: {
        org: requireOption(values, "org"),
        url: requireOption(values, "url"),
        events: parseEvents(requireOption(values, "events")),
      },
      json: values.json === true,
    }),
  },
  {
    name: "webhooks list",
    usage: "sundown webhooks list --org <slug|id> [--json]",
    summary: "List an organization's webhook endpoints (never their secrets)",
    details: [
      "STATUS      enabled, or disabled with why: manual (turned off), gone (the receiver answered 410 Gone) or",
      `            failing (its deliveries failed for ${FAILING_DISABLES_AFTER_MS / DAY_MS} days); after a roll-secret, until when the`,
      "            old secret also signs",
      "--json      print a JSON array of endpoints",
    ],
    options: { org: { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "webhooks.list",
      args: { org: requireOption(values, "org") },
      json: values.json === true,
    }),
  },
  {
    name: "webhooks disable",
    usage: "sundown webhooks disable <endpoint-id>",
    summary: "Turn an endpoint off: it receives nothing, and what was waiting for it is given up",
    details: [ENDPOINT_ID],
    options: {},
    positionals: ["endpoint-id"],
    build: (_values, [id]) => ({ kind: "webhooks.disable", args: { endpointId: parseEndpointId(id!) } }),
  },
  {
    name: "webhooks enable",
    usage: "sundown webhooks enable <endpoint-id>",
    summary: "Turn an endpoint on again: it receives the events from then on",
    details: [
      ENDPOINT_ID,
      "Events from while it was off are not sent; deliveries given up when it was turned off can be redelivered",
      "(`sundown webhooks deliveries`, `sundown webhooks redeliver`).",
    ],
    options: {},
    positionals: ["endpoint-id"],
    build: (_values, [id]) => ({ kind: "webhooks.enable", args: { endpointId: parseEndpointId(id!) } }),
  },
  {
    name: "webhooks delete",
    usage: "sundown webhooks delete <endpoint-id>",
    summary: "Delete an endpoint and its deliveries, for good",
    details: [ENDPOINT_ID, "To stop deliveries for a while instead, `sundown webhooks disable` it."],
    options: {},
    positionals: ["endpoint-id"],
    build: (_values, [id]) => ({ kind: "webhooks.delete", args: { endpointId: parseEndpointId(id!) } }),
  },
  {
    name: "webhooks roll-secret",
    usage: `sundown webhooks roll-secret <endpoint-id> --overlap <${KEY_OVERLAP_CHOICES.join("|")}> [--json]`,
    summary: "Replace an endpoint's signing secret; the old one also signs for the overlap",
    details: [
      ENDPOINT_ID,
      `--overlap      how long the old secret keeps signing too (each delivery carries both signatures):`,
      `               ${KEY_OVERLAP_CHOICES.join(", ")} (0: it stops now)`,
      `--json         print {"id","secret","previous_secret_expires_at","organization":{"id","slug","name"}} only`,
    ],
    options: { overlap: { type: "string" }, ...json },
    positionals: ["endpoint-id"],
    build: (values, [id]) => ({
      kind: "webhooks.roll-secret",
      args: { endpointId: parseEndpointId(id!), overlap: parseOverlap(requireOption(values, "overlap")) },
      json: values.json === true,
    }),
  },
  {
    name: "webhooks ping",
    usage: "sundown webhooks ping <endpoint-id>",
    summary: "Queue a test delivery (type ping) to an endpoint; the server delivers it",
    details: [
      ENDPOINT_ID,
      "The Sundown server sends it within seconds (on a serverless platform, its cron route); the CLI does not.",
      "Sent whether the endpoint is on or off, whatever events it subscribes to; `sundown webhooks deliveries`",
      "shows the attempt.",
    ],
    options: {},
    positionals: ["endpoint-id"],
    build: (_values, [id]) => ({ kind: "webhooks.ping", args: { endpointId: parseEndpointId(id!) } }),
  },
  {
    name: "webhooks deliveries",
    usage: "sundown webhooks deliveries <endpoint-id> [--json]",
    summary: "An endpoint's latest delivery attempts, newest first",
    details: [
      ENDPOINT_ID,
      "STATE          where the delivery stands now: delivered, failed (given up) or pending (when it is tried next)",
      "DELIVERY       the delivery's id, for `sundown webhooks redeliver`; each attempt of a delivery is one line",
      "--json         print a JSON array of attempts",
    ],
    options: { ...json },
    positionals: ["endpoint-id"],
    build: (values, [id]) => ({
      kind: "webhooks.deliveries",
      args: { endpointId: parseEndpointId(id!) },
      json: values.json === true,
    }),
  },
  {
    name: "webhooks redeliver",
    usage: "sundown webhooks redeliver <delivery-id>",
    summary: "Queue a delivery again, now: the same message (same webhook-id), freshly signed",
    details: [
      "<delivery-id>  the DELIVERY column of `sundown webhooks deliveries <endpoint-id>`",
      "Refused while its endpoint is disabled: enable it first. The server sends it, as with `webhooks ping`.",
    ],
    options: {},
    positionals: ["delivery-id"],
    build: (_values, [id]) => ({ kind: "webhooks.redeliver", args: { deliveryId: parseDeliveryId(id!) } }),
  },
  {
    name: "orgs list",
    usage: "sundown orgs list [--json]",
    summary: "List organizations",
    details: ["--json      print a JSON array of {id, slug, name}"],
    options: { ...json },
    positionals: [],
    build: (values) => ({ kind: "orgs.list", json: values.json === true }),
  },
  {
    name: "seed",
    usage: "sundown seed --demo",
    summary: "Add the demo organizations (acme, globex) that do not exist yet",
    details: ["--demo      required: the demo data set is the only one there is"],
    options: { demo: { type: "boolean" } },
    positionals: [],
    build: (values) => {
      if (values.demo !== true)
        throw new UsageError("sundown seed: only demo data can be seeded; run `sundown seed --demo`");
      return { kind: "seed.demo" };
    },
  },
  {
    name: "reports import",
    usage: "sundown reports import <file.json|-> --org <slug|id> [--replace] [--json]",
    summary: "Import reports from a JSON file (- for stdin): validated whole, all or nothing, idempotent",
    details: [
      'file        a JSON array of reports, or { "reports": [...] }; each report:',
      '              { "id"?: uuid, "scope": "org"|"lead"|"member", "scope_target_id": member id (null for org;',
      "                member ids: GET /api/v1/team),",
      '                "generated_at": "2026-11-21T18:30:00Z", "report": { "headline": "…", "kpi_status": [], "shipped": [],',
      '                "silent": [], "slipping": [], "blockers": [] } }',
      "            at most 10000 reports and 20 MB per file",
      "            a report is identified by its id, else by its scope, scope_target_id and generated_at: one",
      "            stored already with the same content is left unchanged; one with other content is refused",
      "--org       the organization the reports belong to",
      "--replace   update the stored reports whose content differs, instead of refusing the file",
      '--json      print {"added","unchanged","replaced","reports":[{"id","outcome"}],"organization"} only',
    ],
    options: { org: { type: "string" }, replace: { type: "boolean" }, ...json },
    positionals: ["file"],
    build: (values, [file]) => ({
      kind: "reports.import",
      org: requireOption(values, "org"),
      file: file!,
      replace: values.replace === true,
      json: values.json === true,
    }),
  },
  ...REPORT_SPECS,
  ...ORGANIZATION_SPECS,
  ...INGEST_TOKEN_SPECS,
  ...MEMBER_SPECS,
  ...UPDATE_SPECS,
  ...INVITATION_SPECS,
  {
    name: "db migrate",
    usage: "sundown db migrate",
    summary: "Apply pending migrations (PostgreSQL at DATABASE_URL; the embedded database migrates itself)",
    details: [
      "A database DATABASE_URL names that does not exist yet is created first where its role may (CREATEDB);",
      "otherwise the command says what to run.",
    ],
    options: {},
    positionals: [],
    build: () => ({ kind: "db.migrate" }),
  },
  {
    name: "doctor",
    usage: "sundown doctor [--mail-to <address>] [--json]",
    summary: "Check a configuration: environment, Node, database, migrations, rate-limit store, URLs, clocks",
    details: [
      "Run it with the environment the server will get (NODE_ENV=production for `npm start`). Each check",
      "passes (✓), warns (!) or fails (✗) with its fix; exit code 1 if any failed, 0 otherwise.",
      "Never prints a key, password or secret.",
      "--mail-to   also send a test message to this address through SMTP_URL",
      '--json      print {"ok", "checks": [{"name", "status": "pass"|"warn"|"fail", "detail", "fix"?}]}',
    ],
    options: { "mail-to": { type: "string" }, ...json },
    positionals: [],
    build: (values) => ({
      kind: "doctor",
      json: values.json === true,
      ...(typeof values["mail-to"] === "string" ? { mailTo: values["mail-to"] } : {}),
    }),
  },
  {
    name: "mcp",
    usage: "sundown mcp",
    summary: "Run a stdio MCP server over the REST API (SUNDOWN_API_KEY, SUNDOWN_URL)",
    details: [
      "SUNDOWN_API_KEY   the key the MCP client acts with",
      "SUNDOWN_URL       the Sundown server, e.g. http://localhost:3000",
    ],
    options: {},
    positionals: [],
    build: () => ({ kind: "mcp" }),
  },
];

const GROUPS = [...new Set(COMMAND_SPECS.filter((c) => c.name.includes(" ")).map((c) => c.name.split(" ")[0]!))];

function generalHelp(): string {
  const label = (c: CommandSpec) => (c.name === "seed" ? "seed --demo" : c.name);
  const width = Math.max(...COMMAND_SPECS.map((c) => label(c).length));
  return [
    "sundown — operator CLI for Sundown",
    "",
    "Usage: sundown <command> [options]",
    "",
    "Commands:",
    ...COMMAND_SPECS.map((c) => `  ${label(c).padEnd(width)}  ${c.summary}`),
    "",
    "Runs on the server's database: PostgreSQL when DATABASE_URL is set, else the embedded database in",
    "SUNDOWN_DATA_DIR (default: .data in the Sundown checkout, from any directory), also while the server is running on it.",
    "Run `sundown <command> --help` for a command's options. Exit codes: 0 ok, 1 failed, 2 usage error.",
  ].join("\n");
}

function commandHelp(spec: CommandSpec): string {
  return [
    `${spec.summary}.`,
    "",
    `Usage: ${spec.usage}`,
    ...(spec.details.length ? ["", ...spec.details.map((d) => `  ${d}`)] : []),
  ].join("\n");
}

function groupHelp(group: string): string {
  const specs = COMMAND_SPECS.filter((c) => c.name.startsWith(`${group} `));
  return [
    "Usage:",
    ...specs.map((c) => `  ${c.usage}`),
    "",
    `Run \`sundown ${group} <subcommand> --help\` for details.`,
  ].join("\n");
}

function requireOption(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string") throw new UsageError(`--${name} is required`);
  return value;
}

function findSpec(argv: string[]): { spec: CommandSpec; rest: string[] } {
  const [first = "", second = ""] = argv;
  const two = COMMAND_SPECS.find((c) => c.name === `${first} ${second}`);
  if (two) return { spec: two, rest: argv.slice(2) };
  const one = COMMAND_SPECS.find((c) => c.name === first);
  if (one) return { spec: one, rest: argv.slice(1) };
  if (GROUPS.includes(first)) {
    const subcommands = COMMAND_SPECS.filter((c) => c.name.startsWith(`${first} `)).map((c) => c.name.split(" ")[1]);
    const what =
      second && !second.startsWith("-") ? `unknown subcommand ${inputExcerpt(second)}` : "missing subcommand";
    throw new UsageError(`sundown ${first}: ${what}; use one of: ${subcommands.join(", ")}`);
  }
  throw new UsageError(`unknown command ${inputExcerpt(first)}. Run \`sundown --help\` for the list.`);
}

const isHelpFlag = (arg: string) => arg === "--help" || arg === "-h";

export function parseCommandLine(argv: string[], now = new Date()): Invocation {
  if (argv.length === 0) return { kind: "help", text: generalHelp(), exitCode: 2 };
  if (isHelpFlag(argv[0]!) || argv[0] === "help") {
    if (argv.length === 1) return { kind: "help", text: generalHelp(), exitCode: 0 };
    return { kind: "help", text: commandHelp(findSpec(argv.slice(1).filter((a) => !isHelpFlag(a))).spec), exitCode: 0 };
  }
  if (GROUPS.includes(argv[0]!) && (argv.length === 1 || isHelpFlag(argv[1]!))) {
    return { kind: "help", text: groupHelp(argv[0]!), exitCode: argv.length === 1 ? 2 : 0 };
  }
  const { spec, rest } = findSpec(argv);
  const optionsEnd = rest.indexOf("--");
  if ((optionsEnd === -1 ? rest : rest.slice(0, optionsEnd)).some(isHelpFlag)) {
    return { kind: "help", text: commandHelp(spec), exitCode: 0 };
  }
  try {
    const { values, positionals, tokens } = parseArgs({
      args: rest,
      options: spec.options,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
    const seen = new Set<string>();
    for (const token of tokens) {
      if (token.kind !== "option") continue;
      if (seen.has(token.name)) throw new UsageError(`--${token.name} is given more than once`);
      seen.add(token.name);
    }
    if (positionals.length < spec.positionals.length) {
      throw new UsageError(`missing <${spec.positionals[positionals.length]}>`);
    }
    if (positionals.length > spec.positionals.length) {
      throw new UsageError(`unexpected argument ${inputExcerpt(positionals[spec.positionals.length]!)}`);
    }
    return spec.build(values as Values, positionals, now);
  } catch (error) {
    const message = error instanceof UsageError ? error.message : nodeParseMessage(error);
    if (message.startsWith("sundown ")) throw new UsageError(message);
    throw new UsageError(`sundown ${spec.name}: ${message}\nUsage: ${spec.usage}`);
  }
}

/** node:util's parse errors, first sentence only, e.g. "unknown option '--nme'". */
function nodeParseMessage(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (typeof code !== "string" || !code.startsWith("ERR_PARSE_ARGS")) throw error;
  const option = /'(--?[\w-]+)/.exec((error as Error).message)?.[1];
  if (option && /argument missing|ambiguous/.test((error as Error).message)) return `${option} needs a value`;
  const first = (error as Error).message.split(/\.\s/)[0]!.replace(/\.$/, "");
  return first.charAt(0).toLowerCase() + first.slice(1);
}
