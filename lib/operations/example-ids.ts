import { DEMO_ORGANIZATIONS } from "@/lib/demo/data";

// What the operations' OpenAPI examples are made of (each operation's own is beside it, e.g. list-reports.example.ts):
// shaped like the demo organization "Acme Robotics" (lib/demo), with fixed ids so the document is stable; tests parse
// every example with the runtime schemas.

export const acme = DEMO_ORGANIZATIONS[0]!;

/** A stable, valid v4 UUID per example entity, e.g. exampleId(1, 3) for the third member. */
function exampleId(kind: number, n: number): string {
  const hex = (value: number, width: number) => value.toString(16).padStart(width, "0");
  return `${hex(0x5d0e0000 + kind, 8)}-${hex(n, 4)}-4${hex(kind, 3)}-8${hex(n, 3)}-${hex(0xac3e, 12)}`;
}

export const memberId = (index: number) => exampleId(2, index + 1);
export const reportId = (index: number) => exampleId(3, index + 1);
export const memberNamed = (name: string) => memberId(acme.members.findIndex((m) => m.name === name));

export const EXAMPLE_ORGANIZATION_ID = exampleId(1, 1);
