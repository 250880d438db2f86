import { describe, expect, it } from "vitest";
import { ApiError, DATABASE_RETRY_AFTER_SECONDS, ERROR_STATUS, errorBody, toApiError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/responses";

describe("toApiError", () => {
  it("keeps an ApiError as it is", () => {
    const error = new ApiError("not_found", "No such report.");
    expect(toApiError(error)).toBe(error);
  });

  it.each([
    ["a refused connection", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
    ["Prisma's unreachable code", Object.assign(new Error("x"), { code: "P1001" })],
    [
      "a connection cut by a shutdown",
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
    ],
    ["a pool that cannot connect in time", new Error("timeout exceeded when trying to connect")],
    ["a statement that outlived the client's read timeout", new Error("Query read timeout")],
    [
      "a statement the server cancelled at statement_timeout",
      Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }),
    ],
    [
      "an unreachable database wrapped in another error",
      new Error("query failed", { cause: Object.assign(new Error("x"), { code: "ECONNRESET" }) }),
    ],
  ])("maps %s to 503 service_unavailable with Retry-After", (_, thrown) => {
    const error = toApiError(thrown);
    expect(error.code).toBe("service_unavailable");
    expect(error.status).toBe(503);
    expect(error.headers).toEqual({ "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) });
  });

  it("turns anything else into a 500 that reveals nothing", async () => {
    const error = toApiError(new Error('relation "ApiKey" does not exist at /srv/app/lib/db.ts:12'));
    expect(error.code).toBe("internal_error");
    const response = errorResponse(error, "req-1");
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: "internal_error",
      message: "An unexpected error occurred.",
      request_id: "req-1",
    });
  });
});

describe("error wire shape", () => {
  it("has a status for every code", () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(new ApiError(code as keyof typeof ERROR_STATUS, "m").status).toBe(status);
    }
  });

  it("carries required_scope on 403 only when set, and request_id", () => {
    expect(
      errorBody(new ApiError("insufficient_scope", "Lacks team:read.", { requiredScope: "team:read" }), "r"),
    ).toEqual({
      error: "insufficient_scope",
      message: "Lacks team:read.",
      required_scope: "team:read",
      request_id: "r",
    });
    expect(errorBody(new ApiError("rate_limited", "Slow down."))).toEqual({
      error: "rate_limited",
      message: "Slow down.",
    });
  });

  it("sends JSON, no-store and the error's own headers", async () => {
    const response = errorResponse(
      new ApiError("rate_limited", "Slow down.", { headers: { "Retry-After": "7" } }),
      "r",
    );
    expect(response.status).toBe(429);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("retry-after")).toBe("7");
  });
});
