/** A row's short values (a key's scopes, an endpoint's events), each as a tag. */
export function TagList({ label, tags }: { label: string; tags: string[] }) {
  return (
    <ul className="scope-list" aria-label={label}>
      {tags.map((tag) => (
        <li key={tag} className="tag">
          {tag}
        </li>
      ))}
    </ul>
  );
}
