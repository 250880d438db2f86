import { ingestMethodNotAllowed, postIngestReports } from "@/lib/ingest/route";

// POST /ingest/v1/reports – one report or a batch, sent in with an ingest token (docs/ingest.md).
export const POST = postIngestReports;

export const GET = ingestMethodNotAllowed;
export const HEAD = ingestMethodNotAllowed;
export const PUT = ingestMethodNotAllowed;
export const PATCH = ingestMethodNotAllowed;
export const DELETE = ingestMethodNotAllowed;
export const OPTIONS = ingestMethodNotAllowed;
