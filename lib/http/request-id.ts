import { randomUUID } from "node:crypto";
import { REQUEST_ID_HEADER } from "@/lib/header-names";

// An incoming id is echoed only when it is short and plain, so it cannot smuggle anything into logs or headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function readRequestId(headers: Headers): string {
  const incoming = headers.get(REQUEST_ID_HEADER);
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
