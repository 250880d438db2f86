import { nextAuthRoute } from "@/lib/http/next-auth-route";

// next-auth's own endpoints (sign-in, callback, session, csrf, sign-out), narrowed to those sign-in uses.
export { nextAuthRoute as GET, nextAuthRoute as POST };
