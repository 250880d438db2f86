import { describe, expect, it } from "vitest";
import { redact, secretsOf } from "@/lib/doctor/mask";
import { foundersVerdict } from "@/lib/doctor/people-checks";

describe("sundown doctor: who can sign in", () => {
  it("an empty database warns with the command that creates the first organization", () => {
    expect(foundersVerdict([])).toEqual({
      status: "warn",
      detail: "no organization yet: nobody can sign in",
      fix: 'Create the first, with its founder\'s link: npx sundown orgs create --slug <slug> --name "<name>" --founder-email <you@example.com>',
    });
  });

  it("passes when every organization has an active founder who can sign in, and names those that have none", () => {
    expect(foundersVerdict([{ slug: "acme", founders: 1 }])).toEqual({
      status: "pass",
      detail: "1 of 1 organization with an active founder who can sign in",
    });
    expect(
      foundersVerdict([
        { slug: "acme", founders: 2 },
        { slug: "globex", founders: 0 },
      ]),
    ).toMatchObject({
      status: "warn",
      detail: "1 of 2 organizations with an active founder who can sign in; none in globex",
      fix: "Send a founder a link: npx sundown invites create --org globex --email <address> --role founder",
    });
    expect(foundersVerdict([{ slug: "acme", founders: 0 }])).toMatchObject({ status: "warn" });
  });

  it("blanks the setup token and the mail password out of the report", () => {
    const secrets = secretsOf({
      SUNDOWN_SETUP_TOKEN: "setup-token-1234567",
      SMTP_URL: "smtp://mailer:s3cret-pw@mail.example:587",
    });
    const text = redact("token setup-token-1234567 and smtp://mailer:s3cret-pw@mail.example:587", secrets);
    expect(text).not.toContain("setup-token-1234567");
    expect(text).not.toContain("s3cret-pw");
  });
});
