/** "Did you mean" for misspelt keys: the closest known name within a small edit distance. */

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j] ?? 0;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      prev[j] = Math.min(above + 1, (prev[j - 1] ?? 0) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return prev[b.length] ?? 0;
}

export function closestName(input: string, candidates: readonly string[]): string | undefined {
  const normalised = input.toLowerCase().replace(/-/g, '_');
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(normalised, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best) return undefined;
  const limit = Math.max(2, Math.floor(best.name.length / 3));
  return best.distance <= limit ? best.name : undefined;
}
