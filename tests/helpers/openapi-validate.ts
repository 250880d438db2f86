import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { buildOpenApiDocument } from "@/lib/openapi/document";
import { buildIngestOpenApiDocument } from "@/lib/openapi/ingest-document";

// Validates what the server actually answered against a published OpenAPI document, with a JSON Schema
// 2020-12 validator (OpenAPI 3.1 schemas are 2020-12). Any test that calls a route can use it:
//   expectMatchesOpenApi("get", "/api/v1/reports/{id}", res.status, res.body, res.headers)
// and, for the ingest surface's own document, expectMatchesIngestOpenApi.

const OPENAPI_TEST_BASE = "http://localhost:3000";

type Json = Record<string, any>;

type Matcher = (method: string, pathTemplate: string, status: number, body: unknown, headers?: Headers) => void;

/** A matcher for one document; its component schemas are registered under `documentId`. */
function openApiMatcher(document: Json, documentId: string): Matcher {
  let ajv: Ajv2020 | undefined;
  const validators = new Map<string, ValidateFunction>();
  const compiler = (): Ajv2020 => {
    if (!ajv) {
      // strict: false because OpenAPI schemas carry keywords JSON Schema does not define (e.g. `example`).
      ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema({ $id: documentId, components: { schemas: document.components?.schemas ?? {} } });
    }
    return ajv;
  };
  return (method, pathTemplate, status, body, headers) =>
    matchResponse({ document, documentId, compiler, validators }, method, pathTemplate, status, body, headers);
}

interface Validation {
  document: Json;
  documentId: string;
  compiler: () => Ajv2020;
  validators: Map<string, ValidateFunction>;
}

function resolve<T = Json>(document: Json, node: Json): T {
  let current = node;
  while (current && typeof current.$ref === "string") {
    const pointer = (current.$ref as string).replace(/^#\//, "").split("/");
    current = pointer.reduce<Json>(
      (value, segment) => value?.[segment.replace(/~1/g, "/").replace(/~0/g, "~")],
      document,
    );
    if (!current) throw new Error(`OpenAPI document has a dangling $ref: ${node.$ref}`);
  }
  return current as T;
}

/** The documented response of an operation for one status, or an error naming what is missing. */
function documentedResponse(document: Json, method: string, pathTemplate: string, status: number): Json {
  const operation = document.paths?.[pathTemplate]?.[method.toLowerCase()];
  if (!operation) throw new Error(`OpenAPI document has no operation ${method.toUpperCase()} ${pathTemplate}`);
  const response = operation.responses?.[String(status)];
  if (!response) {
    throw new Error(
      `OpenAPI document does not list status ${status} for ${method.toUpperCase()} ${pathTemplate} (it lists ${Object.keys(operation.responses).join(", ")})`,
    );
  }
  return resolve(document, response);
}

function validatorFor(validation: Validation, key: string, schema: Json): ValidateFunction {
  let validate = validation.validators.get(key);
  if (!validate) {
    const absolute = JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', `"$ref":"${validation.documentId}#/`));
    validate = validation.compiler().compile(absolute);
    validation.validators.set(key, validate);
  }
  return validate;
}

function matchResponse(
  validation: Validation,
  method: string,
  pathTemplate: string,
  status: number,
  body: unknown,
  headers?: Headers,
): void {
  const response = documentedResponse(validation.document, method, pathTemplate, status);
  const where = `${method.toUpperCase()} ${pathTemplate} → ${status}`;
  const media = response.content?.["application/json"];
  if (!media) {
    if (body !== undefined && body !== null && body !== "") {
      throw new Error(
        `${where}: the document describes no body, but the response has one: ${JSON.stringify(body).slice(0, 200)}`,
      );
    }
  } else {
    const validate = validatorFor(validation, `${where}`, media.schema);
    if (!validate(body)) {
      const problems = (validate.errors ?? []).map(
        (e) => `  ${e.instancePath || "(root)"} ${e.message} ${JSON.stringify(e.params)}`,
      );
      throw new Error(
        `${where}: body does not match the OpenAPI schema:\n${problems.join("\n")}\nbody: ${JSON.stringify(body).slice(0, 500)}`,
      );
    }
  }
  if (headers) {
    for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
      const resolved = resolve(validation.document, header);
      if (resolved.required && !headers.has(name)) throw new Error(`${where}: required header ${name} is missing`);
      const value = headers.get(name);
      if (value !== null && resolved.schema) {
        const validate = validatorFor(validation, `${where} header ${name}`, resolved.schema);
        if (!validate(value))
          throw new Error(
            `${where}: header ${name}: ${JSON.stringify(value)} does not match ${JSON.stringify(resolved.schema)}`,
          );
      }
    }
  }
}

/**
 * Asserts that a response (status, parsed JSON body, optionally headers) is one the agents' OpenAPI document
 * describes: the status is listed for the operation, the body matches the response schema, and every header the
 * document marks as required is present.
 */
export const expectMatchesOpenApi = openApiMatcher(
  buildOpenApiDocument(OPENAPI_TEST_BASE) as unknown as Json,
  "https://sundown.invalid/openapi.json",
);

/** The same for the ingest surface's document (/ingest/v1/openapi.json). */
export const expectMatchesIngestOpenApi = openApiMatcher(
  buildIngestOpenApiDocument(OPENAPI_TEST_BASE) as unknown as Json,
  "https://sundown.invalid/ingest/v1/openapi.json",
);
