import { describe, expect, it } from "vitest";
import { expectMatchesOpenApi } from "@/tests/helpers/openapi-validate";
import { reportExample } from "@/lib/operations/get-report.example";
import { teamListExample } from "@/lib/operations/team.example";

// The validator helper must be able to fail, or every test that relies on it proves nothing.
describe("expectMatchesOpenApi", () => {
  it("accepts a body that matches the documented schema", () => {
    expect(() => expectMatchesOpenApi("GET", "/api/v1/reports/{id}", 200, reportExample)).not.toThrow();
    expect(() => expectMatchesOpenApi("get", "/api/v1/team", 200, teamListExample)).not.toThrow();
  });

  it("rejects a body with a field the schema does not allow, through a $ref", () => {
    const leaky = { ...teamListExample, members: [{ ...teamListExample.members[0], email: "maya@acme.example" }] };
    expect(() => expectMatchesOpenApi("GET", "/api/v1/team", 200, leaky)).toThrow(/additional properties/);
  });

  it("rejects a wrong type, a bad enum value and a missing required field", () => {
    expect(() => expectMatchesOpenApi("GET", "/api/v1/reports", 200, { reports: [], count: "0" })).toThrow(/count/);
    expect(() => expectMatchesOpenApi("GET", "/api/v1/me", 401, { error: "nope" })).toThrow(/allowed values/);
    expect(() => expectMatchesOpenApi("GET", "/api/v1/me", 401, { message: "no code" })).toThrow(
      /required property 'error'/,
    );
  });

  it("rejects a status the document does not list for the operation", () => {
    expect(() => expectMatchesOpenApi("GET", "/api/v1/me", 403, { error: "insufficient_scope" })).toThrow(
      /does not list status 403/,
    );
    expect(() => expectMatchesOpenApi("GET", "/api/v2/me", 200, {})).toThrow(/no operation/);
  });

  it("requires an empty body on 304 and checks documented headers", () => {
    expect(() => expectMatchesOpenApi("GET", "/api/v1/team", 304, undefined)).not.toThrow();
    expect(() => expectMatchesOpenApi("GET", "/api/v1/team", 304, { members: [] })).toThrow(/no body/);
    expect(() => expectMatchesOpenApi("GET", "/api/v1/team", 304, undefined, new Headers({ ETag: '"x"' }))).toThrow(
      /required header X-Request-Id/,
    );
    const headers = new Headers({ "X-Request-Id": "r1", "Retry-After": "soon" });
    expect(() => expectMatchesOpenApi("GET", "/api/v1/team", 503, { error: "service_unavailable" }, headers)).toThrow(
      /Retry-After/,
    );
  });
});
