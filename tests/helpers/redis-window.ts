// The sliding window weighs the previous fixed window by how much of it still overlaps the rolling
// minute. A burst that straddles a window boundary may therefore get one request more or less than
// the limit. Tests that count exactly start their burst well inside a window.

export async function awayFromWindowEdge(windowSeconds = 60, marginMs = 8_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const intoWindow = Date.now() % windowMs;
  if (intoWindow > windowMs - marginMs) await new Promise((r) => setTimeout(r, windowMs - intoWindow + 50));
}
