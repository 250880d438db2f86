import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ErrorObject } from "ajv";
import registrySchema from "../vendor/mcp-registry-server.schema.json";
import serverCardSchema from "../vendor/mcp-server-card.schema.json";

// Validators for the published MCP schemas vendored in tests/vendor (see its README for their sources). Each
// returns the list of violations, empty when the document conforms, so a failing test says what is wrong.

type Violations = string[];

function violations(errors: ErrorObject[] | null | undefined): Violations {
  return (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
}

// The registry's schema is draft-07 (Ajv's default dialect); `example` is an OpenAPI keyword it carries.
const registry = new Ajv({ strict: false, allErrors: true });
addFormats(registry);
const validateServerJson = registry.compile(registrySchema);

// The server card schema is 2020-12, with the card itself under $defs.
const cards = new Ajv2020({ strict: false, allErrors: true });
addFormats(cards);
cards.addSchema(serverCardSchema, "server-card");
const validateCard = cards.compile({ $ref: "server-card#/$defs/ServerCard" });

export function registryEntryViolations(document: unknown): Violations {
  return validateServerJson(document) ? [] : violations(validateServerJson.errors);
}

export function serverCardViolations(document: unknown): Violations {
  return validateCard(document) ? [] : violations(validateCard.errors);
}
