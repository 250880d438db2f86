import { describe, expect, it } from "vitest";
import { formKeyOf } from "@/components/settings/create-form";
import type { CreateKeyState } from "@/lib/settings/api-key-actions";

// After a key is created the page shows its secret box (keyed by the new key's id) beside a fresh form. Siblings
// with one key made React report a duplicate key on every creation (Next's dev "1 Issue" badge).

describe("the create form's React key", () => {
  it("differs from the new key's secret box beside it, and changes with each new key", () => {
    const created = (id: string): CreateKeyState => ({
      status: "created",
      key: { id, name: "n", secret: "sdn_sk_x", scopes: ["team:read"], expiresAt: null },
    });
    const keyOf = (state: CreateKeyState) => formKeyOf(state, ({ key }: { key: { id: string } }) => key.id);
    expect(keyOf(created("k1"))).not.toBe("k1");
    expect(keyOf(created("k1"))).not.toBe(keyOf(created("k2")));
    expect(keyOf({ status: "idle" })).toBe("idle");
  });
});
