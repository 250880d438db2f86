// Text written by people (report content) shown to a model inside markdown of ours. It goes in a fenced code
// block whose fence is longer than any run of backticks in the text (CommonMark §4.5), so nothing in it can
// close the block early and pass for our own headings or instructions.

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/** The text in a fenced block that it cannot break out of, with a note above that it is data. */
export function fenceUntrusted(text: string, note: string): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${note}\n\n${fence}text\n${text}\n${fence}`;
}
