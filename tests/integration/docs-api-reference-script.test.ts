import { describe, expect, it } from "vitest";
import { GET, POST } from "@/app/docs/api-reference.js/route";
import { call } from "../helpers/request";

// The docs page's API reference loads Scalar's browser build from Sundown itself: public, cacheable, revalidated.
describe("GET /docs/api-reference.js", () => {
  it("serves Scalar's browser build as JavaScript, public for an hour, with a strong ETag", async () => {
    const res = await call(GET, "/docs/api-reference.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.text).toContain("createApiReference");
  });

  it("answers 304 to If-None-Match with the ETag it sent, and refuses other methods with the contract's 405", async () => {
    const first = await call(GET, "/docs/api-reference.js");
    const again = await call(GET, "/docs/api-reference.js", {
      headers: { "If-None-Match": first.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    const post = await call(POST, "/docs/api-reference.js", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.body.error).toBe("method_not_allowed");
  });
});
