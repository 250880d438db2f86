// The anchor's one statement: the key and its organization's 15 newest summaries (a page of 14 and one more to
// tell whether another follows). Its own file, so `npm run bench:statements` times it beside Sundown's.
export const ANCHOR_PAGE = 14;

export const anchorKeyAndPage = {
  name: "anchor-key-page",
  text: `SELECT k.id, k.scopes, k.revoked_at, k.expires_at, (
    SELECT coalesce(json_agg(r), '[]'::json) FROM (
      SELECT id, scope, scope_target_id, generated_at, headline FROM reports
      WHERE organization_id = k.organization_id ORDER BY generated_at DESC, id DESC LIMIT ${ANCHOR_PAGE + 1}
    ) r) AS reports
  FROM api_keys k WHERE k.hashed_key = $1`,
};
