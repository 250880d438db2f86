import { z } from "zod";
import { scopeSchema } from "@/lib/auth/scopes";
import { uuid } from "./common";

const organizationSchema = z
  .object({
    id: uuid.meta({ description: "Organization identifier." }),
    name: z.string().meta({ description: "Organization name." }),
  })
  .meta({ id: "Organization" });

export const identitySchema = z
  .object({
    organization: organizationSchema,
    scopes: z.array(scopeSchema),
  })
  .meta({ id: "Identity" });

export type Identity = z.infer<typeof identitySchema>;
