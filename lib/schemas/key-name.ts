import { visibleNameSchema } from "./visible-name";

/** Longest key name, in UTF-16 code units (what a browser's `maxLength` counts). */
export const KEY_NAME_MAX = 64;

/** A name for a secret someone creates ("key", "token"): the same rule and messages on every surface. */
const secretNameSchema = (what: string) => visibleNameSchema(`Enter a name for the ${what}.`, KEY_NAME_MAX);

/** A key's name, the same rule and messages on every surface that creates one (settings form, CLI). */
export const keyNameSchema = secretNameSchema("key");

/** An ingest token's name, by the key name's rule (settings, CLI). */
export const ingestTokenNameSchema = secretNameSchema("token");
