// The anchor's keyed list: what a developer writes by hand for Sundown's keyed `GET /api/v1/reports` on bare
// Next.js (bench/anchor/keyed-list.ts), answered with `Response.json`: the floor the framework sets, which
// `npm run bench` holds Sundown's CPU per request against.
import { keyedList } from "../../../../keyed-list";

export async function GET(request: Request): Promise<Response> {
  const page = await keyedList(request);
  if ("code" in page) return Response.json({ error: { code: page.code } }, { status: page.status });
  return Response.json(page);
}
