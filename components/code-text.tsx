/** Text written for docs and the CLI, where `backticks` mark code: rendered with <code> instead of the marks. */
export function CodeText({ text }: { text: string }) {
  return text.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}
