import { REPORT_LIMIT } from "@/lib/schemas/reports";

// Each error code of the API with the situation that produces it, in the words the guide uses: the /docs
// page's table and llms-full.txt both print this list.
export const ERROR_GUIDE = [
  {
    status: 400,
    code: "invalid_parameter",
    when: `A parameter is invalid or given twice (limit outside ${REPORT_LIMIT.min}–${REPORT_LIMIT.max}, a date that does not exist, since after until, a cursor made for other filters…); the message names it.`,
  },
  { status: 401, code: "unauthorized", when: "The key is missing, malformed, unknown, revoked or expired." },
  { status: 403, code: "insufficient_scope", when: "The key is valid but lacks the scope; required_scope names it." },
  {
    status: 403,
    code: "forbidden",
    when: "A browser Origin the MCP endpoint does not serve, or a cross-site form post.",
  },
  { status: 404, code: "not_found", when: "No such report in your organization, or no such path." },
  { status: 405, code: "method_not_allowed", when: "Anything but GET or HEAD: the API is read-only." },
  { status: 429, code: "rate_limited", when: "Too many requests for this key; wait Retry-After seconds." },
  { status: 500, code: "internal_error", when: "An unexpected failure on our side. Quote the request_id." },
  {
    status: 503,
    code: "service_unavailable",
    when: "The database is unreachable or too busy to answer in time; retry after Retry-After seconds.",
  },
] as const;
