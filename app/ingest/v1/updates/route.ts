import { ingestUpdatesMethodNotAllowed, postIngestUpdates } from "@/lib/ingest/updates-route";

// POST /ingest/v1/updates – people's updates and absences, sent in with an ingest token (docs/ingest.md).
export const POST = postIngestUpdates;

export const GET = ingestUpdatesMethodNotAllowed;
export const HEAD = ingestUpdatesMethodNotAllowed;
export const PUT = ingestUpdatesMethodNotAllowed;
export const PATCH = ingestUpdatesMethodNotAllowed;
export const DELETE = ingestUpdatesMethodNotAllowed;
export const OPTIONS = ingestUpdatesMethodNotAllowed;
