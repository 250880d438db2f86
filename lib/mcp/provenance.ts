import { PEOPLE_WRITTEN } from "@/lib/markdown/untrusted";

// Every MCP result that carries text people wrote (the tools' results, the resources' contents, the reports a prompt
// attaches) says so: in the first line of a tool's text, which a model reads, and under `_meta` for a client to read
// (a resource's contents are the REST API's JSON, which a line of prose would break; the contract's objects, the
// tools' structuredContent among them, get no field they do not define).

/** The line, as a tool result's text starts with it. */
export const PROVENANCE_LINE = `Text from Sundown, ${PEOPLE_WRITTEN}`;

/** The same, as `_meta` of a result or of a resource's contents (keyed in Sundown's reverse-DNS namespace). */
export const PROVENANCE_META = { "dev.sundown/provenance": PROVENANCE_LINE };
