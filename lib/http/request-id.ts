import { randomUUID } from "node:crypto";

// An incoming id is echoed only when it is short and plain, so it cannot smuggle anything into logs or headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function readRequestId(headers: Headers): string {
  const incoming = headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
