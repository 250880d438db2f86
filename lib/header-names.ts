// The names of the headers Sundown reads or writes for itself, each spelt once: the key's two headers, the request
// id, and the rate limit's. Below every layer, since errors (Retry-After) and the API root's schema (X-API-Key) name
// them too. Header names are case-insensitive on the wire; these are the spellings the responses and documents use.

/** The key as a bearer token: `Authorization: Bearer <key>`. */
export const AUTHORIZATION_HEADER = "Authorization";
/** The bare key, for clients that cannot set Authorization. */
export const API_KEY_HEADER = "X-API-Key";
export const REQUEST_ID_HEADER = "X-Request-Id";
export const RETRY_AFTER_HEADER = "Retry-After";
/** The IETF draft's pair: what is left of the window, and the policy. */
export const RATE_LIMIT_HEADER = "RateLimit";
export const RATE_LIMIT_POLICY_HEADER = "RateLimit-Policy";
