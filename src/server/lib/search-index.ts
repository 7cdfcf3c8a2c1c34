/**
 * Incremental in-memory full-text index behind the space search endpoint.
 *
 * Terms are runs of Unicode letters and digits, lower-cased with diacritics removed
 * (`Café` and `cafe` are the same term). A query matches a document when every query
 * term occurs in it (title or sections); the last query term also matches as a prefix,
 * so results follow the user's typing ("instal" finds "install").
 *
 * Ranking is BM25 over the section titles and bodies, plus a bonus per query term found
 * in the page title that is larger than any body score can get for that term, so a title
 * match outranks a body-only one. Equal scores are ordered by path, then id.
 *
 * Per term the index keeps a posting list (document slots and occurrences, as parallel
 * arrays: fast to scan, compact); a query reads only the postings of its terms, cheapest
 * first, accumulating scores in typed arrays indexed by slot. Removing a document finds
 * it in each of its postings by a linear scan. Prefixes are expanded with a binary search
 * in a sorted term list, which new terms join lazily (merged in before the next prefix
 * expansion).
 */

interface SearchSection {
  id: string;
  title: string;
  body: string;
}

export interface SearchDocument {
  id: string;
  title: string;
  path: string;
  sections: SearchSection[];
}

export interface SearchSectionHit {
  id: string;
  title: string;
  /**
   * How well the section matches, higher first (its order among the page's sections): the distinct
   * query terms it holds, plus 0.5 when its title holds one, plus up to 0.25 for its occurrences.
   */
  score: number;
  /** At most 200 characters of the section body around its first match. */
  body: string;
}

export interface SearchHit {
  id: string;
  title: string;
  path: string;
  score: number;
  /** Sections containing a query term, best first. */
  sections: SearchSectionHit[];
}

export interface SearchOptions {
  /** Most hits returned (default 20). */
  limit?: number;
  /** Work out each hit's matching sections (default true); `sectionsFor` does it for one hit later. */
  sections?: boolean;
}

const DEFAULT_LIMIT = 20;
const SNIPPET_LENGTH = 200;
/** Context kept before the first match in a snippet. */
const SNIPPET_LEAD = 60;

// BM25 parameters.
const K1 = 1.2;
const B = 0.75;
/**
 * Bonus (times the term's idf) for a term in the page title. A body-only match is worth at
 * most idf * (K1 + 1) = 2.2 idf, so 2.5 keeps any title match above it; shorter titles get
 * up to one more (an exact title wins over a long one containing the term).
 */
const TITLE_BONUS = 2.5;
/** Query terms beyond this many (the last one aside) are ignored. */
const MAX_QUERY_TERMS = 32;
/** Weight of a completion of the last query term over the term itself. */
const PREFIX_WEIGHT = 0.8;

const WORD = /[\p{L}\p{N}]+/gu;
/** A word in the original text: marks included, so that offsets survive folding. */
const RAW_WORD = /[\p{L}\p{N}\p{M}]+/gu;
const NON_WORD = /[^\p{L}\p{N}]+/u;

/** Lower-case and strip diacritics (lower-casing first: `İ` lower-cases to `i` + a combining dot). */
function fold(text: string): string {
  const lower = text.toLowerCase();
  return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFKD').replace(/\p{M}/gu, '') : lower;
}

function termsOf(text: string): string[] {
  return fold(text).match(WORD) ?? [];
}

/** Offset in `text` of the first word holding a term for which `matches` is true (0 if none). */
function firstMatchOffset(text: string, matches: (term: string) => boolean): number {
  for (const m of text.matchAll(RAW_WORD)) {
    if (fold(m[0]).split(NON_WORD).some(matches)) return m.index;
  }
  return 0;
}

interface Entry {
  slot: number;
  doc: SearchDocument;
  /** Distinct terms of title and body: the postings holding this document. */
  terms: string[];
  /** Where this document is in the posting of `terms[k]`: at index `at[k]` (so removing it costs no search). */
  at: number[];
}

/**
 * Documents holding a term: `slots[i]` with `values[i]` = 2 * (occurrences in the section
 * titles and bodies) + 1 if the term is in the page title. Unordered.
 */
interface Posting {
  slots: number[];
  values: number[];
  /** `ords[i]`: the index of this posting's term in the `terms` of the entry at `slots[i]`. */
  ords: number[];
}

/** A query term resolved against the index: the index terms it matches. */
interface QueryTerm {
  /** Matching index terms, with their weight (1, or PREFIX_WEIGHT for completions). */
  variants: { postings: Posting; idf: number; weight: number }[];
  /** Sum of the posting sizes. */
  cost: number;
}

/** Best-first order of hits: score, then path, then id. */
function compareHits(a: { score: number; entry: Entry }, b: { score: number; entry: Entry }): number {
  return (
    b.score - a.score ||
    (a.entry.doc.path < b.entry.doc.path ? -1 : a.entry.doc.path > b.entry.doc.path ? 1 : 0) ||
    (a.entry.doc.id < b.entry.doc.id ? -1 : a.entry.doc.id > b.entry.doc.id ? 1 : 0)
  );
}

export class SearchIndex {
  private readonly byId = new Map<string, Entry>();
  /** Entries by slot; slots of removed documents are reused. */
  private readonly slots: (Entry | undefined)[] = [];
  private readonly freeSlots: number[] = [];
  /** Per slot: number of terms in the section titles and bodies, and in the page title. */
  private readonly lengths: number[] = [];
  private readonly titleLengths: number[] = [];
  private readonly postings = new Map<string, Posting>();
  private totalLength = 0;
  /** Sorted terms for prefix expansion; may still hold terms since removed. */
  private sortedTerms: string[] = [];
  /** Terms added since `sortedTerms` was last rebuilt. */
  private pendingTerms: string[] = [];
  private termsRemoved = false;

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Add a document, or replace the indexed version of it. */
  upsert(doc: SearchDocument): void {
    this.remove(doc.id);
    const titleTerms = termsOf(doc.title);
    const values = new Map<string, number>();
    let length = 0;
    for (const section of doc.sections) {
      for (const text of [section.title, section.body]) {
        const terms = termsOf(text);
        for (const term of terms) values.set(term, (values.get(term) ?? 0) + 2);
        length += terms.length;
      }
    }
    for (const term of new Set(titleTerms)) values.set(term, (values.get(term) ?? 0) + 1);

    const slot = this.freeSlots.pop() ?? this.slots.length;
    const entry: Entry = {
      slot,
      doc: { id: doc.id, title: doc.title, path: doc.path, sections: doc.sections.map((s) => ({ ...s })) },
      terms: [...values.keys()],
      at: [],
    };
    for (const [term, value] of values) {
      let posting = this.postings.get(term);
      if (!posting) {
        posting = { slots: [], values: [], ords: [] };
        this.postings.set(term, posting);
        this.pendingTerms.push(term);
      }
      entry.at.push(posting.slots.length);
      posting.ords.push(entry.at.length - 1);
      posting.slots.push(slot);
      posting.values.push(value);
    }
    this.slots[slot] = entry;
    this.lengths[slot] = length;
    this.titleLengths[slot] = titleTerms.length;
    this.byId.set(doc.id, entry);
    this.totalLength += length;
  }

  remove(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    entry.terms.forEach((term, k) => {
      const { slots, values, ords } = this.postings.get(term) as Posting;
      // Move the last element into the removed one's place (and tell its entry where it went).
      const i = entry.at[k];
      const last = slots.length - 1;
      if (i !== last) {
        slots[i] = slots[last];
        values[i] = values[last];
        ords[i] = ords[last];
        (this.slots[slots[i]] as Entry).at[ords[i]] = i;
      }
      slots.pop();
      values.pop();
      ords.pop();
      if (slots.length === 0) {
        this.postings.delete(term);
        this.termsRemoved = true;
      }
    });
    this.byId.delete(id);
    this.slots[entry.slot] = undefined;
    this.freeSlots.push(entry.slot);
    this.totalLength -= this.lengths[entry.slot];
  }

  search(query: string, opts: SearchOptions = {}): SearchHit[] {
    const limit = opts.limit ?? DEFAULT_LIMIT;
    const parsed = parseQuery(query);
    if (!parsed || limit <= 0 || this.size === 0) return [];
    const { exact, prefix } = parsed;

    const resolved = exact.map((term) => this.resolve([term], term));
    resolved.push(this.resolve(this.expand(prefix), prefix));
    if (resolved.some((q) => q.variants.length === 0)) return [];
    resolved.sort((a, b) => a.cost - b.cost);

    // Query terms in order of cost; a slot stays a candidate while it matched every term so
    // far (matched[slot] = how many), so the larger posting lists mostly cost a lookup each.
    // A term's score in a document is that of its best variant there.
    const n = this.slots.length;
    const matched = new Uint8Array(n);
    const termScore = new Float64Array(n);
    const total = new Float64Array(n);
    const avgLength = this.totalLength / this.size || 1;
    const { lengths, titleLengths } = this;
    const found: number[] = [];
    resolved.forEach((q, qi) => {
      const last = qi === resolved.length - 1;
      for (const { postings, idf, weight } of q.variants) {
        const { slots, values } = postings;
        for (let i = 0; i < slots.length; i++) {
          const slot = slots[i];
          if (matched[slot] < qi) continue;
          const tf = values[i] >> 1;
          const body = tf === 0 ? 0 : (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[slot]) / avgLength));
          const title = values[i] & 1 ? TITLE_BONUS + 1 / titleLengths[slot] : 0;
          const score = idf * weight * (body + title);
          if (matched[slot] === qi) {
            matched[slot] = qi + 1;
            termScore[slot] = score;
            total[slot] += score;
            if (last) found.push(slot);
          } else if (score > termScore[slot]) {
            total[slot] += score - termScore[slot];
            termScore[slot] = score;
          }
        }
      }
    });

    // Best hits: gather, and cut back to `limit` whenever the list has grown well past it;
    // from then on, hits scoring below the last one kept cannot make it.
    const top: { score: number; entry: Entry }[] = [];
    const keepBest = () => {
      top.sort(compareHits);
      if (top.length > limit) top.length = limit;
    };
    let threshold = 0;
    for (const slot of found) {
      if (total[slot] < threshold) continue;
      top.push({ score: total[slot], entry: this.slots[slot] as Entry });
      if (top.length >= 2 * limit + 64) {
        keepBest();
        threshold = top[top.length - 1].score;
      }
    }
    keepBest();

    const withSections = opts.sections !== false;
    return top.map(({ score, entry }) => ({
      id: entry.doc.id,
      title: entry.doc.title,
      path: entry.doc.path,
      score,
      sections: withSections ? matchingSections(entry.doc.sections, queryTermOfFor(parsed)) : [],
    }));
  }

  /** The sections of document `id` that match `query`, best first (for a hit found without them). */
  sectionsFor(id: string, query: string): SearchSectionHit[] {
    const entry = this.byId.get(id);
    const parsed = parseQuery(query);
    return entry && parsed ? matchingSections(entry.doc.sections, queryTermOfFor(parsed)) : [];
  }

  /** Posting lists (and idf) of the given index terms, weighted against the query term. */
  private resolve(terms: string[], queryTerm: string): QueryTerm {
    const variants: QueryTerm['variants'] = [];
    let cost = 0;
    for (const term of terms) {
      const postings = this.postings.get(term);
      if (!postings) continue;
      const df = postings.slots.length;
      const idf = Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
      variants.push({ postings, idf, weight: term === queryTerm ? 1 : PREFIX_WEIGHT });
      cost += df;
    }
    return { variants, cost };
  }

  /** Index terms starting with `prefix`. */
  private expand(prefix: string): string[] {
    this.refreshSortedTerms();
    const terms = this.sortedTerms;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (terms[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < terms.length && terms[i].startsWith(prefix); i++) out.push(terms[i]);
    return out;
  }

  /** Merge new terms into the sorted list and drop removed ones (linear, only after changes). */
  private refreshSortedTerms(): void {
    if (this.pendingTerms.length === 0 && !this.termsRemoved) return;
    const added = this.pendingTerms.sort();
    const old = this.sortedTerms;
    const merged: string[] = [];
    let i = 0;
    let j = 0;
    while (i < old.length || j < added.length) {
      const term = j >= added.length || (i < old.length && old[i] <= added[j]) ? old[i++] : added[j++];
      // Skip duplicates (a term removed, then added again) and terms without postings.
      if (term !== merged[merged.length - 1] && this.postings.has(term)) merged.push(term);
    }
    this.sortedTerms = merged;
    this.pendingTerms = [];
    this.termsRemoved = false;
  }
}

/** A query's whole words and its last word, which matches as a prefix (as typed); null when empty. */
function parseQuery(query: string): { exact: string[]; prefix: string } | null {
  const words = termsOf(query);
  if (words.length === 0) return null;
  const prefix = words[words.length - 1];
  return { prefix, exact: [...new Set(words.slice(0, -1))].filter((w) => w !== prefix).slice(0, MAX_QUERY_TERMS - 1) };
}

/** Index of the query term a word matches, or -1. */
function queryTermOfFor({ exact, prefix }: { exact: string[]; prefix: string }) {
  return (term: string): number => {
    const i = exact.indexOf(term);
    return i >= 0 ? i : term.startsWith(prefix) ? exact.length : -1;
  };
}

/**
 * Sections with at least one query term, ranked by how many distinct query terms they hold,
 * then whether their title matches, then by occurrences (each step worth less than the one before:
 * see `SearchSectionHit.score`); with a snippet of each body.
 */
function matchingSections(sections: SearchSection[], queryTermOf: (term: string) => number): SearchSectionHit[] {
  const ranked: { hit: SearchSectionHit; index: number }[] = [];
  sections.forEach((section, index) => {
    const found = new Set(
      termsOf(section.title)
        .map(queryTermOf)
        .filter((q) => q >= 0),
    );
    const titleMatch = found.size > 0;
    let occurrences = 0;
    for (const term of termsOf(section.body)) {
      const q = queryTermOf(term);
      if (q < 0) continue;
      found.add(q);
      occurrences++;
    }
    if (found.size === 0) return;
    const at = occurrences > 0 ? firstMatchOffset(section.body, (term) => queryTermOf(term) >= 0) : 0;
    // Distinct query terms dominate (1 each), then the title (0.5), then occurrences (below 0.25).
    const score = found.size + (titleMatch ? 0.5 : 0) + (0.25 * occurrences) / (occurrences + 1);
    ranked.push({ hit: { id: section.id, title: section.title, score, body: snippet(section.body, at) }, index });
  });
  ranked.sort((a, b) => b.hit.score - a.hit.score || a.index - b.index);
  return ranked.map((r) => r.hit);
}

/** At most SNIPPET_LENGTH characters of `text` around `at`, cut at spaces, whitespace collapsed. */
function snippet(text: string, at: number): string {
  if (text.length <= SNIPPET_LENGTH) return text.replace(/\s+/g, ' ').trim();
  let start = Math.max(0, at - SNIPPET_LEAD);
  if (start > 0) {
    // Start after a space when one is close, rather than inside a word.
    const space = text.slice(start, at).search(/\s/);
    if (space >= 0) start += space + 1;
  }
  // Room for the two ellipses.
  let end = Math.min(text.length, start + SNIPPET_LENGTH - 2);
  if (end < text.length) {
    const space = text.slice(at, end).search(/\s\S*$/);
    if (space > 0) end = at + space;
  }
  return (start > 0 ? '…' : '') + text.slice(start, end).replace(/\s+/g, ' ').trim() + (end < text.length ? '…' : '');
}
