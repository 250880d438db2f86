import { describe, expect, it } from "vitest";
import { loggedRoute } from "@/lib/http/logged-route";

describe("the path the request log keeps", () => {
  it("keeps a one-time link's token out of the log", () => {
    const token = "sdn_in_0123456789abcdefghijABCDEFGHIJ0123456789";
    expect(loggedRoute(`/invite/${token}`)).toBe("/invite/[token]");
    expect(loggedRoute(`/invite/${token}/more`)).toBe("/invite/[token]/more");
    expect(loggedRoute(`/invite/${token}`)).not.toContain(token);
  });

  it("leaves every other path as it is", () => {
    for (const path of [
      "/",
      "/settings/team",
      "/api/v1/reports/5d0e0003",
      "/invitations/x",
      "/settings/team/invitations",
    ]) {
      expect(loggedRoute(path)).toBe(path);
    }
  });
});
