import { withApiKey } from "@/lib/http/with-api-key";
import { identitySchema } from "@/lib/schemas/identity";

// GET /api/v1/me – the calling key's organization and scopes; verifies any valid key.
export const GET = withApiKey(async ({ key }) => ({ organization: key.organization, scopes: key.scopes }), {
  output: identitySchema,
});

export { POST, PUT, PATCH, DELETE } from "@/lib/http/method-not-allowed";
export { OPTIONS } from "@/lib/http/cors";
