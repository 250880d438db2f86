import type { Icon, StandardSchemaWithJSON } from "@modelcontextprotocol/server";

// What each resource and prompt is, said once: its registration (createSundownServer) and the server card's
// listing (lib/discovery/mcp-primitive-listing.ts) both read it, so the card cannot say what a connected client would not list.

interface ResourceDescription {
  name: string;
  title: string;
  description: string;
  mimeType: string;
}

export interface ResourceDefinition extends ResourceDescription {
  uri: string;
}

export interface ResourceTemplateDefinition extends ResourceDescription {
  uriTemplate: string;
}

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  /** The arguments as prompts/list publishes them. */
  argsSchema: StandardSchemaWithJSON;
}

/**
 * A resource's metadata as it is registered. The SDK lists it as given, after the uri (or template) and the name,
 * so the order of these keys is their order on the wire.
 */
export function resourceMetadata({ title, description, mimeType }: ResourceDescription, icons: Icon[]) {
  return { title, description, mimeType, icons };
}
