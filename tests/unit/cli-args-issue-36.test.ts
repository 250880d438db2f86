import { describe, expect, it } from "vitest";
import { parseCommandLine } from "@/cli/args";
import { UsageError } from "@/lib/cli/errors";

// The commands of issue 36 (the first organization, one-time links, the doctor's test message): their names and
// flags are an interface other tools and the docs rely on.

const parse = (argv: string[]) => parseCommandLine(argv);

function usageMessage(argv: string[]): string {
  try {
    parse(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for: ${argv.join(" ")}`);
}

describe("issue 36's commands", () => {
  it("orgs create takes a slug, a name, the founder's address and name, the address lower-cased", () => {
    expect(
      parse([
        "orgs",
        "create",
        "--slug",
        "acme",
        "--name",
        "Acme Robotics",
        "--founder-email",
        "Maya@Acme.example",
        "--founder-name",
        "Maya Chen",
        "--json",
      ]),
    ).toEqual({
      kind: "orgs.create",
      args: { slug: "acme", name: "Acme Robotics", founderEmail: "maya@acme.example", founderName: "Maya Chen" },
      json: true,
    });
    // The founder's name defaults to the address before the @.
    expect(
      parse(["orgs", "create", "--slug", "acme", "--name", "Acme", "--founder-email", "maya@acme.example"]),
    ).toMatchObject({
      args: { founderName: "maya" },
      json: false,
    });
  });

  it("orgs create refuses a missing flag, a bad slug, an invisible name and a bad address, naming the flag", () => {
    expect(usageMessage(["orgs", "create", "--slug", "acme", "--name", "Acme"])).toContain(
      "--founder-email is required",
    );
    expect(
      usageMessage(["orgs", "create", "--slug", "Acme Inc", "--name", "A", "--founder-email", "a@b.example"]),
    ).toContain("--slug: Use lower-case letters");
    expect(
      usageMessage(["orgs", "create", "--slug", "acme", "--name", "\u3164", "--founder-email", "a@b.example"]),
    ).toContain("--name: Use at least one visible character");
    expect(usageMessage(["orgs", "create", "--slug", "acme", "--name", "A", "--founder-email", "nope"])).toContain(
      "--founder-email: Enter an e-mail address",
    );
  });

  it("invites create, list and revoke", () => {
    expect(parse(["invites", "create", "--org", "acme", "--email", "Lena@acme.example", "--role", "lead"])).toEqual({
      kind: "invites.create",
      args: { org: "acme", email: "lena@acme.example", role: "lead" },
      json: false,
    });
    expect(
      usageMessage(["invites", "create", "--org", "acme", "--email", "l@acme.example", "--role", "admin"]),
    ).toContain("--role: Use founder, lead or member.");
    expect(parse(["invites", "list", "--org", "acme", "--json"])).toEqual({
      kind: "invites.list",
      args: { org: "acme" },
      json: true,
    });
    expect(parse(["invites", "revoke", "0F3E5B1C-6A2D-4C8E-9B7A-1D2E3F4A5B6C"])).toEqual({
      kind: "invites.revoke",
      args: { invitationId: "0f3e5b1c-6a2d-4c8e-9b7a-1d2e3f4a5b6c" },
    });
    expect(usageMessage(["invites", "revoke", "abc"])).toContain("is not an invitation id");
  });

  it("doctor sends a test message with --mail-to", () => {
    expect(parse(["doctor", "--mail-to", "ops@example.com"])).toEqual({
      kind: "doctor",
      json: false,
      mailTo: "ops@example.com",
    });
  });
});
