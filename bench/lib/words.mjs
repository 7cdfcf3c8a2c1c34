/**
 * Deterministic text for the scale and search figures: pseudo-words from a fixed vocabulary, drawn
 * with a skewed (Zipf-like) frequency, so that some terms are in most pages and most are rare.
 */
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 've', 'zi', 'po', 'da', 'fe', 'gu', 'hi', 'jo', 'be', 'ni', 'ta', 'ro', 'me'];
const VOCABULARY_SIZE = 5000;

/** The vocabulary: word i has 2 to 4 syllables. */
export const WORDS = Array.from({ length: VOCABULARY_SIZE }, (_, i) => {
  let w = '';
  for (let n = i + SYLLABLES.length; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return w;
});

/** A small seeded PRNG (mulberry32). */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Index of a word drawn with a skewed frequency: low indices are common. */
export function skewed(rand) {
  return Math.floor(VOCABULARY_SIZE * rand() ** 3);
}

/** `count` words of text in sentences, the same for the same seed (one flat string). */
export function pageMarkdown(seed, count) {
  const rand = random(seed + 1);
  const parts = [];
  for (let i = 0; i < count; i++) {
    parts.push(WORDS[skewed(rand)]);
    parts.push(i === count - 1 ? '.' : i % 12 === 11 ? '. ' : ' ');
  }
  return parts.join('');
}
