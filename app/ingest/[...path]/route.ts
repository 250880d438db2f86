import { ingestNotFound } from "@/lib/ingest/route";

// Any /ingest path no route claims: a JSON 404, never the framework's HTML page.
export const GET = ingestNotFound;
export const HEAD = ingestNotFound;
export const POST = ingestNotFound;
export const PUT = ingestNotFound;
export const PATCH = ingestNotFound;
export const DELETE = ingestNotFound;
export const OPTIONS = ingestNotFound;
