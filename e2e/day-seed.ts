import { openEmbedded } from "@/lib/db";
import { seedDemoOnFirstStart } from "@/lib/demo/first-start";

// Seeds an embedded database (the directory given) for e2e/your-day.spec.ts, before a server opens it: acme's
// member (Liam) wrote an update two days before today, in acme's time zone, with two blockers and a slipping item
// for "Your day" to offer. Run with `node --import tsx`.

async function main() {
  const [dataDir] = process.argv.slice(2);
  const handle = await openEmbedded(dataDir!, "cli");
  await seedDemoOnFirstStart(handle);
  const content = {
    shipped: [{ title: "Gripper calibration script" }],
    slipping: [{ item: "Fleet dashboard filters", reason: "API not ready", due: "2026-01-05" }],
    blockers: [{ description: "Waiting on staging access from IT" }, { description: "Torque sensor samples late" }],
    kpis: [],
    note: null,
  };
  await handle.sql.rows(
    {
      name: "seed-previous-update",
      text: `INSERT INTO updates (organization_id, member_id, day, content, source)
             SELECT o.id, m.id, (now() AT TIME ZONE o.time_zone)::date - 2, $1::jsonb, 'page'
             FROM organizations o JOIN members m ON m.organization_id = o.id
             WHERE o.slug = 'acme' AND m.name = 'Liam O''Connor'`,
    },
    [JSON.stringify(content)],
  );
  await handle.close();
}

void main();
