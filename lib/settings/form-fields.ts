// Form fields as a settings action's schema expects them.

/**
 * A field sent once as text, as the schema expects it; sent twice (or as a file) it is handed on as it came and
 * refused by the schema, never silently reduced to one of its values.
 */
export function singleField(formData: FormData, name: string): FormDataEntryValue | FormDataEntryValue[] | undefined {
  const values = formData.getAll(name);
  return values.length === 1 ? values[0] : values.length === 0 ? undefined : values;
}

/** The named fields, each read as singleField reads it: a settings action's `read` for a form of single fields. */
export function singleFields(...names: string[]) {
  return (formData: FormData): Record<string, unknown> =>
    Object.fromEntries(names.map((name) => [name, singleField(formData, name)]));
}
