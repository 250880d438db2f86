import { describe, expect, it } from "vitest";
import { EMAIL_MASK, isContactKey, scrubContactDetails } from "@/lib/data/scrub";

describe("contact-detail scrubbing", () => {
  it("removes contact keys at every depth, in objects and arrays", () => {
    const input = {
      headline: "ok",
      silent: [{ member: "Ana", email: "ana@x.example", slack_id: "U1", nested: { chat_id: 5, phone: "+1 555", keep: true } }],
      blockers: [[{ Email: "A@B.example", owner: "Bo" }]],
      contact: { telegram_handle: "@t", discordId: "d#1", whatsapp: "+49", emailAddress: "z@z.example", work_email: "w@w.example" },
    };
    expect(scrubContactDetails(input)).toEqual({
      headline: "ok",
      silent: [{ member: "Ana", nested: { keep: true } }],
      blockers: [[{ owner: "Bo" }]],
      contact: {},
    });
  });

  it("masks e-mail addresses written inside text", () => {
    expect(scrubContactDetails({ note: "ask bob.smith+eod@acme.example or ann@x.co.uk today" })).toEqual({
      note: `ask ${EMAIL_MASK} or ${EMAIL_MASK} today`,
    });
  });

  it("keeps ordinary fields, numbers, booleans and nulls", () => {
    const input = { owner: "Liam", days_late: 3, done: false, due: null, member_id: "abc", mailing_list: "eng" };
    expect(scrubContactDetails(input)).toEqual(input);
  });

  it("does not change its input", () => {
    const input = { a: [{ email: "x@y.example" }] };
    scrubContactDetails(input);
    expect(input.a[0]).toEqual({ email: "x@y.example" });
  });

  it.each(["email", "e_mail", "E-Mail", "slack_id", "slackHandle", "chat_id", "chat_handle", "phone_number", "mobile", "teams_user_id"])(
    "treats %s as a contact key",
    (key) => expect(isContactKey(key)).toBe(true),
  );
  it.each(["member", "member_id", "owner", "headline", "emailed", "status", "chatter", "telephone_count"])(
    "does not treat %s as a contact key",
    (key) => expect(isContactKey(key)).toBe(false),
  );
});
