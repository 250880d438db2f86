import { ApiError } from "@/lib/errors";
import { API_KEY_HEADER, AUTHORIZATION_HEADER } from "@/lib/header-names";

// Keys are accepted in exactly two headers. Never in the URL: URLs end up in logs,
// browser history and Referer headers.

const MISSING_KEY_MESSAGE = `Missing API key. Send it as '${AUTHORIZATION_HEADER}: Bearer <key>' or '${API_KEY_HEADER}: <key>'.`;

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

// A key never holds a comma, and repeated headers arrive joined by one (the fetch Headers do it, and the
// server's request guard does it for the Authorization headers Node would otherwise drop): a request carrying
// two keys is refused rather than served with whichever came first.
function refuseRepeated(value: string | null, header: string): void {
  if (value?.includes(",")) {
    throw new ApiError("unauthorized", `The request carries more than one ${header} header: send exactly one key.`);
  }
}

/** The key presented by the request, or a 401 explaining what is wrong with the headers. */
export function readApiKey(headers: Headers): string {
  const authorization = headers.get(AUTHORIZATION_HEADER);
  const apiKeyHeader = headers.get(API_KEY_HEADER);
  refuseRepeated(authorization, AUTHORIZATION_HEADER);
  refuseRepeated(apiKeyHeader, API_KEY_HEADER);
  let fromAuthorization: string | undefined;
  if (authorization !== null) {
    const match = BEARER.exec(authorization);
    if (!match) {
      throw new ApiError(
        "unauthorized",
        `The ${AUTHORIZATION_HEADER} header must use the Bearer scheme: '${AUTHORIZATION_HEADER}: Bearer <key>'.`,
      );
    }
    fromAuthorization = match[1];
  }
  const fromHeader = apiKeyHeader?.trim();
  if (apiKeyHeader !== null && !fromHeader)
    throw new ApiError("unauthorized", `The ${API_KEY_HEADER} header is empty.`);
  if (fromAuthorization && fromHeader && fromAuthorization !== fromHeader) {
    throw new ApiError(
      "unauthorized",
      `${AUTHORIZATION_HEADER} and ${API_KEY_HEADER} carry different keys; send one key.`,
    );
  }
  const key = fromAuthorization ?? fromHeader;
  if (!key) throw new ApiError("unauthorized", MISSING_KEY_MESSAGE);
  return key;
}
