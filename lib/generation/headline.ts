// A generated report's headline, counted from its own arrays, in the words imported reports use (lib/demo/seed.ts):
// "Ana Souza: 2 shipped, 1 slipping, 1 blocker, 1 silent" (silent only when someone is).

export function headline(
  subject: string,
  counts: { shipped: number; slipping: number; blockers: number; silent: number },
): string {
  const blockers = `${counts.blockers} blocker${counts.blockers === 1 ? "" : "s"}`;
  const silent = counts.silent > 0 ? `, ${counts.silent} silent` : "";
  return `${subject}: ${counts.shipped} shipped, ${counts.slipping} slipping, ${blockers}${silent}`;
}
