import { afterEach, describe, expect, it, vi } from "vitest";
import { withEnv } from "../helpers/env";
import { withRequest } from "@/lib/http/with-request";

function connectionReset(): Error {
  return Object.assign(new Error("aborted"), { code: "ECONNRESET" });
}

afterEach(() => vi.restoreAllMocks());

describe("withRequest failure handling", () => {
  it("treats a connection reset as the database being unreachable while the client is still there", () =>
    withEnv({ SUNDOWN_LOG_LEVEL: "info" }, async () => {
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      vi.spyOn(console, "log").mockImplementation(() => {});
      const route = withRequest(async () => {
        throw connectionReset();
      });
      const res = await route(new Request("http://localhost/api/v1/me"));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(errors).toHaveBeenCalledTimes(1);
    }));

  it("does not mistake a client that hung up for a server failure", () =>
    withEnv({ SUNDOWN_LOG_LEVEL: "info" }, async () => {
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const lines: string[] = [];
      vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
      const controller = new AbortController();
      const route = withRequest(async () => {
        controller.abort();
        throw connectionReset();
      });
      const res = await route(new Request("http://localhost/api/mcp", { method: "POST", signal: controller.signal }));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid_parameter" });
      expect(errors).not.toHaveBeenCalled();
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({ msg: "request", status: 400, client_aborted: true });
    }));
});
