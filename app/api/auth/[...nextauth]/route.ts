import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/session/next-auth";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth's own endpoints (sign-in, callback, session, csrf, sign-out). Options are built on first request.
function handler(request: Request, context: Context) {
  return NextAuth(request as never, context as never, getAuthOptions());
}

export { handler as GET, handler as POST };
