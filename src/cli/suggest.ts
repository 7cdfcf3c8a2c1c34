/**
 * "Did you mean …?" for a mistyped command or flag: the names within a small edit distance of what
 * was typed (a letter missing, extra, changed or two swapped; two for longer words), or that start
 * with it. An alias that matches suggests its command's name.
 */

export interface Candidate {
  name: string;
  aliases?: readonly string[];
}

/** The names closest to `typed`, best first (empty when none is close). */
export function similar(typed: string, candidates: readonly (Candidate | string)[]): string[] {
  const word = typed.toLowerCase();
  let best = Infinity;
  let found: string[] = [];
  for (const c of candidates) {
    const { name, aliases = [] } = typeof c === 'string' ? { name: c } : c;
    let score = Infinity;
    for (const spelling of [name, ...aliases]) {
      const s = spelling.toLowerCase();
      const d = distance(word, s);
      // Up to 1 edit in a word of 3–5 letters, 2 from 6 on; a prefix of 2 letters or more counts as 1.
      const allowed = Math.min(2, Math.floor(Math.max(word.length, s.length) / 3));
      if (d <= allowed) score = Math.min(score, d);
      else if (word.length >= 2 && s.startsWith(word)) score = Math.min(score, 1);
    }
    if (score < best) [best, found] = [score, [name]];
    else if (score === best && score !== Infinity && !found.includes(name)) found.push(name);
  }
  return found;
}

/**
 * `Did you mean list?`, `Did you mean get or set?`, or '' when nothing is close. `prefix` is left
 * out of the comparison and kept in the answer (`--` for flags: `--lmit` → `Did you mean --limit?`).
 */
export function didYouMean(typed: string, candidates: readonly (Candidate | string)[], prefix = ''): string {
  const strip = (s: string) => (prefix && s.startsWith(prefix) ? s.slice(prefix.length) : s);
  const names = similar(
    strip(typed),
    candidates.map((c) => (typeof c === 'string' ? strip(c) : { name: strip(c.name), aliases: c.aliases?.map(strip) })),
  ).map((n) => prefix + n);
  if (names.length === 0) return '';
  const last = names[names.length - 1];
  return `Did you mean ${names.length === 1 ? last : `${names.slice(0, -1).join(', ')} or ${last}`}?`;
}

/** Edit distance with adjacent swaps (optimal string alignment). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
