// `npm run bench:scrub`: CPU to mask the contact details of every stored report's strings and keys, without the
// scrubber's cache of short texts (lib/data/scrub.ts keeps a list's headlines, so a keyed list rarely pays this;
// a report read the first time does). Compares the rules of two checkouts when run in each in turn.
//
// Needs PostgreSQL with Sundown's schema and the demo data (see bench/handler-cost.ts):
//   DATABASE_URL=postgresql://… npm run bench:scrub [-- --rounds 100]
import { parseArgs } from "node:util";
import pg from "pg";
import { maskContactText } from "@/lib/data/contact-text";
import { knownContactsOf } from "@/lib/data/known-contacts";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "100" } } });
const ROUNDS = Number(values.rounds);
if (!process.env.DATABASE_URL) throw new Error("bench:scrub needs DATABASE_URL: it reads the stored reports");

const client = new pg.Client(process.env.DATABASE_URL);
await client.connect();
const { rows } = await client.query<{ organization_id: string; content: unknown }>(
  "SELECT organization_id, content FROM reports",
);
const { rows: members } = await client.query<{
  email: string | null;
  chat_handle: string | null;
  sign_in: string | null;
}>("SELECT m.email, m.chat_handle, u.email AS sign_in FROM members m LEFT JOIN users u ON u.member_id = m.id");
await client.end();

// One matcher for every member: as many known values as the largest organization's, and more.
const known = knownContactsOf(members.map((m) => [m.email, m.chat_handle, m.sign_in, null]));
const texts: string[] = [];
const collect = (value: unknown): void => {
  if (typeof value === "string") texts.push(value);
  else if (Array.isArray(value)) value.forEach(collect);
  else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      texts.push(key);
      collect(inner);
    }
  }
};
rows.forEach((row) => collect(row.content));
const characters = texts.reduce((sum, text) => sum + text.length, 0);

// Warm: code optimized, the fold caches filled.
for (let round = 0; round < 20; round++) for (const text of texts) maskContactText(text, known);
const before = process.cpuUsage();
for (let round = 0; round < ROUNDS; round++) for (const text of texts) maskContactText(text, known);
const spent = process.cpuUsage(before);
const micros = (spent.user + spent.system) / ROUNDS;
console.log(
  `${rows.length} reports, ${texts.length} strings and keys, ${characters} characters: ` +
    `${(micros / rows.length).toFixed(1)} µs per report, ${(micros / texts.length).toFixed(2)} µs per string ` +
    `(Node ${process.versions.node})`,
);
