import { z } from "zod";
import { ERROR_CODES } from "@/lib/errors";
import { scopeSchema } from "@/lib/auth/scopes";

export const uuid = z.uuid();

/**
 * Any 8-4-4-4-12 hex id, whatever its version bits: what PostgreSQL's uuid type accepts. Inputs are checked
 * with this (so an unknown id is a 404, not a 400); `uuid` above describes the ids Sundown itself issues.
 * No regex flags, so the same pattern means the same in a JSON Schema (ECMA-262 `pattern` has none).
 */
export const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** ISO 8601 UTC with milliseconds and a Z suffix, as Date#toISOString writes it. */
export const timestamp = z.iso.datetime({ precision: 3 }).meta({ example: "2026-11-21T18:30:00.000Z" });

export const errorSchema = z
  .object({
    error: z.enum(ERROR_CODES).meta({ description: "Stable machine-readable error code." }),
    message: z.string().optional().meta({ description: "Human-readable explanation." }),
    required_scope: scopeSchema.optional().meta({ description: "Present on 403 only: the scope the key lacks." }),
    request_id: z.string().optional().meta({ description: "The request's X-Request-Id, for support." }),
  })
  .meta({ id: "Error" });
