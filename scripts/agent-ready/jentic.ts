import type { CheckResult, JsonObject, Observation, YardstickScore } from "./types";

// Jentic's API AI-Readiness Framework (JAIRF 0.2.0, github.com/jentic/api-ai-readiness-framework
// docs/specification/spec.md), applied to /openapi.json: six dimensions of signals in [0, 1], each dimension
// 100 × the mean of its signals, and the score the harmonic mean of the dimensions, so one weak dimension cannot
// hide behind strong ones. Readiness levels: < 40 Not Ready, 40 Foundational, 60 AI-Aware, 75 AI-Ready,
// > 90 Agent-Optimized. The signals the spec leaves to a linter, embeddings or a model (lint results, doc
// clarity, semantic distinctiveness, intent legibility, OWASP posture) are left out, not guessed; the weights are
// equal. Each signal below is the spec's ratio over this document's operations.

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

interface Operation {
  id: string;
  method: string;
  path: string;
  spec: JsonObject;
}

interface Signal {
  name: string;
  value: number;
  reason: string;
}

function operationsOf(document: JsonObject): Operation[] {
  return Object.entries((document.paths ?? {}) as Record<string, JsonObject>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      id: `${method.toUpperCase()} ${path}`,
      method,
      path,
      spec: item[method] as JsonObject,
    })),
  );
}

/** The share of `items` for which `holds` is true, and the first few that fail it, by name. */
function ratio<T>(name: string, items: T[], holds: (item: T) => number | boolean, label: (item: T) => string): Signal {
  if (items.length === 0) return { name, value: 1, reason: "nothing to check" };
  const values = items.map((item) => Number(holds(item)));
  const short = items.filter((_, i) => values[i]! < 1).map(label);
  const value = values.reduce((sum, v) => sum + v, 0) / items.length;
  return {
    name,
    value,
    reason: short.length
      ? `short: ${short.slice(0, 3).join(", ")}${short.length > 3 ? "…" : ""}`
      : `${items.length}/${items.length}`,
  };
}

function resolvePointer(document: JsonObject, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<unknown>(
      (node, key) => (node && typeof node === "object" ? (node as JsonObject)[key] : undefined),
      document,
    );
}

function refsOf(node: unknown): string[] {
  if (!node || typeof node !== "object") return [];
  if (Array.isArray(node)) return node.flatMap(refsOf);
  return Object.entries(node).flatMap(([key, value]) =>
    key === "$ref" && typeof value === "string" ? [value] : refsOf(value),
  );
}

function deref(document: JsonObject, node: unknown): JsonObject {
  let current = node as JsonObject | undefined;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 10; hops++) {
    current = resolvePointer(document, current.$ref) as JsonObject | undefined;
  }
  return current ?? {};
}

const responsesOf = (op: Operation) => Object.entries((op.spec.responses ?? {}) as Record<string, JsonObject>);
const parametersOf = (document: JsonObject, op: Operation) =>
  ((op.spec.parameters ?? []) as unknown[]).map((parameter) => deref(document, parameter));

/** JAIRF's auth_strength table, for the schemes an API like this declares. */
function schemeStrength(scheme: JsonObject): number {
  if (scheme.type === "apiKey") return scheme.in === "query" ? 0.15 : 0.5;
  if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "bearer")
    return scheme.bearerFormat === "JWT" ? 0.75 : 0.6;
  if (scheme.type === "http" && String(scheme.scheme).toLowerCase() === "basic") return 0.1;
  if (scheme.type === "oauth2" || scheme.type === "openIdConnect") return 0.85;
  if (scheme.type === "mutualTLS") return 0.95;
  return 0;
}

function isLoopback(url: string): boolean {
  try {
    return ["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname);
  } catch {
    return false;
  }
}

function dimensions(document: JsonObject): Record<string, Signal[]> {
  const ops = operationsOf(document);
  const refs = refsOf(document);
  const media = (op: Operation) =>
    responsesOf(op).flatMap(([status, response]) =>
      Object.entries((deref(document, response).content ?? {}) as Record<string, JsonObject>).map(
        ([type, content]) => ({ op, status, type, content }),
      ),
    );
  const errorMedia = (op: Operation) => media(op).filter(({ status }) => /^[45]/.test(status));
  // A collection GET answers a list of resources: an array of objects, bare or as a property of the body.
  const listOfObjects = (node: unknown) => {
    const schema = deref(document, node);
    return schema.type === "array" && deref(document, schema.items).type === "object";
  };
  const collection = (op: Operation) => {
    const schema = deref(document, media(op).find(({ status }) => status === "200")?.content.schema);
    return (
      op.method === "get" &&
      (listOfObjects(schema) || Object.values((schema.properties ?? {}) as JsonObject[]).some(listOfObjects))
    );
  };
  const schemes = Object.values((document.components?.securitySchemes ?? {}) as Record<string, JsonObject>);
  const servers = ((document.servers ?? []) as JsonObject[]).map((server) => String(server.url));
  const tags = (document.tags ?? []) as JsonObject[];
  const described = (node: JsonObject) => typeof node.description === "string" && node.description.length > 0;

  return {
    "Foundational Compliance": [
      {
        name: "spec_validity",
        value: Number(/^3\./.test(String(document.openapi)) && Boolean(document.info?.title) && ops.length > 0),
        reason: `openapi ${document.openapi}, ${ops.length} operations`,
      },
      ratio(
        "resolution_completeness",
        refs,
        (ref) => resolvePointer(document, ref) !== undefined,
        (ref) => ref,
      ),
    ],
    "Developer Experience": [
      ratio(
        "example_density",
        ops.flatMap(media),
        ({ content }) => "example" in content || "examples" in content,
        ({ op, status }) => `${op.id} ${status}`,
      ),
      ratio(
        "response_coverage",
        ops,
        (op) => responsesOf(op).some(([s]) => /^2/.test(s)) && responsesOf(op).some(([s]) => /^4/.test(s)),
        (op) => op.id,
      ),
    ],
    "AI-Readiness & Agent Experience": [
      ratio(
        "summary_coverage",
        ops,
        (op) => Boolean(op.spec.summary),
        (op) => op.id,
      ),
      ratio(
        "description_coverage",
        [...ops.map((op) => op.spec), ...ops.flatMap((op) => parametersOf(document, op)), document.info ?? {}],
        described,
        (node) => String(node.operationId ?? node.name ?? "info"),
      ),
      ratio(
        "policy_presence",
        ops,
        (op) => "x-ratelimit" in op.spec,
        (op) => op.id,
      ),
      // RFC 9457 problem+json scores 1; one shared error schema with a machine-readable code, half of it.
      ratio(
        "error_standardization",
        ops.filter((op) => errorMedia(op).length > 0),
        (op) =>
          errorMedia(op).every(({ type }) => type === "application/problem+json")
            ? 1
            : new Set(errorMedia(op).map(({ content }) => JSON.stringify(content.schema))).size === 1
              ? 0.5
              : 0,
        (op) => `${op.id} (not problem+json)`,
      ),
      ratio(
        "opid_quality",
        ops,
        (op) =>
          typeof op.spec.operationId === "string" &&
          ops.filter((o) => o.spec.operationId === op.spec.operationId).length === 1,
        (op) => op.id,
      ),
    ],
    "Agent Usability": [
      ratio(
        "pagination",
        ops.filter(collection),
        (op) =>
          "x-pagination" in op.spec ||
          parametersOf(document, op).some((p) => ["cursor", "page", "offset"].includes(String(p.name))),
        (op) => op.id,
      ),
      ratio(
        "tool_calling_alignment",
        ops,
        (op) => Boolean(op.spec.operationId && op.spec.summary) && parametersOf(document, op).every(described),
        (op) => op.id,
      ),
    ],
    Security: [
      ratio(
        "auth_coverage",
        ops,
        (op) => Array.isArray(op.spec.security) || Array.isArray(document.security),
        (op) => op.id,
      ),
      {
        name: "auth_strength",
        value: schemes.length ? schemes.reduce((sum, s) => sum + schemeStrength(s), 0) / schemes.length : 0,
        reason:
          schemes.map((s) => `${s.type}${s.scheme ? `/${s.scheme}` : ""}${s.in ? ` in ${s.in}` : ""}`).join(", ") ||
          "no security schemes",
      },
      ratio(
        "transport_security",
        servers,
        (url) => url.startsWith("https://") || isLoopback(url),
        (url) => url,
      ),
    ],
    "AI Discoverability": [
      { name: "servers", value: Number(servers.length > 0), reason: servers.join(", ") || "no servers" },
      { name: "info_description", value: Number(described(document.info ?? {})), reason: "info.description" },
      ratio("tag_descriptions", tags, described, (tag) => String(tag.name)),
    ],
  };
}

const LEVELS: [number, string][] = [
  [90, "Agent-Optimized"],
  [75, "AI-Ready"],
  [60, "AI-Aware"],
  [40, "Foundational"],
  [0, "Not Ready"],
];

const round = (value: number) => Math.round(value * 10) / 10;

export function scoreJentic(observation: Observation): YardstickScore {
  const yardstick = "Jentic API AI-readiness (OpenAPI)";
  if (!observation.openapi) {
    return {
      yardstick,
      score: 0,
      max: 100,
      verdict: "Not Ready",
      checks: [{ name: "openapi.json", outcome: "fail", reason: "missing or not JSON" }],
    };
  }
  const scores = Object.entries(dimensions(observation.openapi)).map(([dimension, signals]) => ({
    dimension,
    signals,
    score: (100 * signals.reduce((sum, s) => sum + s.value, 0)) / signals.length,
  }));
  const harmonic = scores.some((d) => d.score === 0)
    ? 0
    : scores.length / scores.reduce((sum, d) => sum + 1 / d.score, 0);
  const score = round(harmonic);
  const checks: CheckResult[] = scores.flatMap(({ dimension, signals, score: dimensionScore }) =>
    signals.map((signal) => ({
      name: `${dimension} ${round(dimensionScore)}: ${signal.name} ${Math.round(signal.value * 100) / 100}`,
      outcome: signal.value === 1 ? "pass" : "fail",
      reason: signal.reason,
    })),
  );
  return { yardstick, score, max: 100, verdict: LEVELS.find(([floor]) => score >= floor)![1], checks };
}
