import { stringify } from "csv-stringify/sync";
import { importMembers, MemberImportError, type RosterFileFormat } from "@/lib/data/member-import";
import { listRoster } from "@/lib/data/members";
import { wakeDeliveryLoop } from "@/lib/webhooks/loop";
import type { CommandArgs } from "./command-args";
import { CLI_ACTOR, requireOrganization } from "./operator";

// `sundown members import|list|export`: the roster from the shell, through the same data functions as Settings →
// Team, acting as the operator ({ label: "cli" }), who may change founders too.

/**
 * Imports a roster file. A file with problems is an answer too, not an error: `--json` prints them with the
 * counts (all zero), and the CLI exits 1.
 */
export async function importMembersCommand(args: CommandArgs<"members.import">) {
  const organization = await requireOrganization(args.org);
  try {
    const result = await importMembers(
      organization.id,
      CLI_ACTOR,
      "operator",
      { text: args.text, format: args.format as RosterFileFormat },
      { dryRun: args.dryRun, deactivateMissing: args.deactivateMissing },
    );
    if (!result.dryRun && result.added + result.updated + result.deactivated > 0) wakeDeliveryLoop();
    return { organization, ...result, problems: null };
  } catch (error) {
    if (!(error instanceof MemberImportError)) throw error;
    return {
      organization,
      added: 0,
      updated: 0,
      unchanged: 0,
      deactivated: 0,
      dryRun: args.dryRun,
      people: [],
      problems: error.problems,
    };
  }
}

/** The roster as the operator reads it: ids (report files need them), addresses, roles. */
export async function listMembersCommand(args: CommandArgs<"members.list">) {
  const organization = await requireOrganization(args.org);
  const members = (await listRoster(organization.id)).map((m) => ({
    id: m.id,
    name: m.name,
    email: m.email,
    role: m.role,
    department: m.department,
    external: m.external,
    active: m.active,
    chat: m.chats,
    phone: m.phones,
  }));
  return { organization, members };
}

/** The roster as a CSV the import takes back: the import's columns, with `id` first for report files. */
export async function exportMembersCommand(args: CommandArgs<"members.export">) {
  const { organization, members } = await listMembersCommand(args);
  const chats = Math.max(1, ...members.map((m) => m.chat.length));
  const phones = Math.max(1, ...members.map((m) => m.phone.length));
  const header = [
    "id",
    "name",
    "email",
    "role",
    "department",
    "external",
    "active",
    ...Array<string>(chats).fill("chat"),
    ...Array<string>(phones).fill("phone"),
  ];
  const pad = (values: string[], length: number) => [...values, ...Array<string>(length - values.length).fill("")];
  const rows = members.map((m) => [
    m.id,
    m.name,
    m.email ?? "",
    m.role,
    m.department ?? "",
    String(m.external),
    String(m.active),
    ...pad(m.chat, chats),
    ...pad(m.phone, phones),
  ]);
  return { organization, count: members.length, csv: stringify([header, ...rows]) };
}
