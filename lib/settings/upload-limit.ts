// How large a file Settings → Reports takes, apart from its inputs' schemas so the upload form can check it before
// posting without bringing zod into the page's bundle.
//
// A server action's body holds at most 1 MiB (Next's bodySizeLimit, lib/http/server-action-body.ts), and the
// confirmation's body carries the file twice: the text the preview handed back, and the preview itself as the
// action's previous state (useActionState sends it). So 400 kB, with room for JSON's escaping of the second copy.
export const UPLOAD_MAX_BYTES = 400_000;

export const UPLOAD_TOO_LARGE =
  "The file is larger than this page takes (400 kB): import it with `sundown reports import`, or send it to POST /ingest/v1/reports.";
