/**
 * The word a mistyped one was most likely meant to be (a command, a flag): for the
 * "did you mean …?" of an unknown command or option.
 *
 * @module
 */

/** A mistyped flag is taken for a longer one it starts only when it has this many characters (`--po`). */
export const FLAG_PREFIX = 4;

/** Edit distance between two short words (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * The candidate closest to `word` (case-insensitive) when one is close: at most 2 edits, or one
 * that starts with `word` when `word` has at least `minPrefix` characters; `undefined` otherwise.
 * @example closestWord('--prot', ['--port', '--host']) // '--port'
 */
export function closestWord<T extends string>(word: string, candidates: readonly T[], minPrefix = 2): T | undefined {
  const lower = word.toLowerCase();
  let best: { name: T; cost: number } | undefined;
  for (const name of candidates) {
    const cost = name.startsWith(lower) && lower.length >= minPrefix ? 0 : distance(lower, name);
    if (cost <= 2 && (best === undefined || cost < best.cost)) best = { name, cost };
  }
  return best?.name;
}
