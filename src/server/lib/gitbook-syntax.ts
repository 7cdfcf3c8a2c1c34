/**
 * GitBook's own Markdown syntax for its blocks (what Git Sync writes, docs/content-export.md):
 * `{% hint style="info" %}` … `{% endhint %}`, `{% tabs %}`/`{% tab title="A" %}`, `{% stepper %}`/
 * `{% step %}`, `{% code title="x" lineNumbers="true" %}` around a fence, `{% embed url="…" %}`,
 * `{% file src="…" %}`, `{% content-ref url="…" %}`, `{% openapi src="…" path="…" method="…" %}`,
 * `<details>`/`<summary>` and `$$` math. This module cuts a Markdown text into those containers and the
 * plain Markdown between them (read by markdown.ts), in one pass over its lines.
 *
 * A tag counts only on a line of its own, at the start of the line, outside fenced code. What is not
 * a well-formed tag in its place is kept as text: an unknown tag, a hint of an unknown style, an end
 * tag that closes nothing open, a `{% tab %}` outside `{% tabs %}`, a container never closed (its
 * opening line is text, its content stays where it is). Containers nest at most MAX_TAG_NESTING deep:
 * deeper tags are text too (or, read strictly, refused).
 */

/** Plain Markdown, or a container and what it holds. */
export type Segment = { kind: 'md'; text: string } | { kind: 'tag'; tag: TagNode };

export interface TagNode {
  name: string;
  attrs: Record<string, string>;
  children: Segment[];
  /** The `<summary>` of a `<details>`, as Markdown. */
  summary?: string;
  /** A `$$` block's formula. */
  formula?: string;
  /** The line that opened it (kept as text when it is never closed). */
  line: string;
}

/** Containers (closed by `{% endNAME %}`), and what must hold them directly. */
const CONTAINERS: Record<string, { parent?: string }> = {
  hint: {},
  tabs: {},
  tab: { parent: 'tabs' },
  stepper: {},
  step: { parent: 'stepper' },
  code: {},
  'content-ref': {},
  openapi: {},
};
/** Tags without content; an `{% endNAME %}` after them (their caption, which the document cannot hold) is dropped. */
const VOIDS = new Set(['embed', 'file']);
const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);

/** Deepest nesting of containers read (as deep as markdown.ts's MAX_NESTING lets quotes and lists nest). */
export const MAX_TAG_NESTING = 100;

/** Read strictly, tags nested deeper than MAX_TAG_NESTING. */
export class TagsTooDeep extends Error {}

/** Whether `markdown` may hold GitBook syntax at all (else it is plain Markdown, read as before). */
export function mayHoldTags(markdown: string): boolean {
  return markdown.includes('{%') || markdown.includes('$$') || markdown.includes('<details');
}

const NAME_CHAR = /[\w-]/;

/** `name="value" …` (values with `&quot;`, `&amp;`, `&lt;`, `&gt;` decoded), or undefined when malformed. One pass. */
export function parseAttributes(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let i = 0;
  const space = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  };
  for (;;) {
    space();
    if (i >= text.length) return out;
    const start = i;
    while (i < text.length && NAME_CHAR.test(text[i])) i++;
    if (i === start) return undefined;
    const name = text.slice(start, i);
    space();
    if (text[i] !== '=') return undefined;
    i++;
    space();
    if (text[i] !== '"') return undefined;
    const end = text.indexOf('"', i + 1);
    if (end < 0) return undefined;
    out[name] = decodeEntities(text.slice(i + 1, end));
    i = end + 1;
    if (i < text.length && text[i] !== ' ' && text[i] !== '\t') return undefined;
  }
}

export function decodeEntities(text: string): string {
  return text.replace(/&(quot|amp|lt|gt|#39);/g, (_, e: string) => ({ quot: '"', amp: '&', lt: '<', gt: '>', '#39': "'" })[e]!);
}

/** An attribute value as written: `"` and `&` (and `<`, `>`) as entities. */
export function attribute(value: string): string {
  return value.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!);
}

type Line = { open: string; attrs: Record<string, string> } | { close: string } | { details: boolean } | { summary: string } | { endDetails: true };

/** A line that is a tag (trailing spaces allowed), or undefined. */
function tagLine(line: string): Line | undefined {
  const c = line[0];
  if (c === '{') {
    const trimmed = line.trimEnd();
    if (!trimmed.startsWith('{%') || !trimmed.endsWith('%}') || trimmed.length < 5) return undefined;
    const inner = trimmed.slice(2, -2).trim();
    const name = /^[a-z][a-z-]*/.exec(inner)?.[0];
    if (!name) return undefined;
    const rest = inner.slice(name.length);
    if (rest !== '' && rest[0] !== ' ' && rest[0] !== '\t') return undefined;
    if (name.startsWith('end')) return rest.trim() === '' ? { close: name.slice(3) } : undefined;
    const attrs = parseAttributes(rest);
    return attrs ? { open: name, attrs } : undefined;
  }
  if (c === '<') {
    const trimmed = line.trim();
    if (trimmed === '<details>') return { details: false };
    if (trimmed === '<details open>') return { details: true };
    if (trimmed === '</details>') return { endDetails: true };
    if (trimmed.startsWith('<summary>') && trimmed.endsWith('</summary>')) return { summary: trimmed.slice(9, -10) };
  }
  return undefined;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * `markdown` cut into plain Markdown and containers. Strictly (`strict`), containers nested deeper
 * than MAX_TAG_NESTING throw TagsTooDeep; else their tags are text.
 */
export function scanTags(markdown: string, strict = false): Segment[] {
  const root: TagNode = { name: '', attrs: {}, children: [], line: '' };
  const stack: TagNode[] = [root];
  let buf: string[] = [];
  let fence: string | null = null;
  let math: string[] | null = null;
  /** The `<details>` just opened, waiting for its `<summary>` (the next line that is not blank). */
  let awaitingSummary: TagNode | null = null;
  const top = () => stack[stack.length - 1];
  const flush = () => {
    if (buf.some((l) => l.trim() !== '')) top().children.push({ kind: 'md', text: buf.join('\n') });
    buf = [];
  };
  const open = (tag: TagNode) => {
    flush();
    if (stack.length > MAX_TAG_NESTING) {
      if (strict) throw new TagsTooDeep(`nests GitBook blocks deeper than ${MAX_TAG_NESTING} levels`);
      buf.push(tag.line);
      return false;
    }
    top().children.push({ kind: 'tag', tag });
    stack.push(tag);
    return true;
  };
  const close = () => {
    flush();
    stack.pop();
  };
  for (const line of markdown.split('\n')) {
    if (math) {
      if (line.trim() === '$$') {
        top().children.push({ kind: 'tag', tag: { name: 'math', attrs: {}, children: [], formula: math.join('\n'), line: '$$' } });
        math = null;
      } else math.push(line);
      continue;
    }
    if (fence !== null) {
      buf.push(line);
      const m = FENCE.exec(line);
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && line.slice(m[0].length).trim() === '') fence = null;
      continue;
    }
    const fenceOpen = FENCE.exec(line);
    if (fenceOpen) {
      fence = fenceOpen[1];
      buf.push(line);
      awaitingSummary = null;
      continue;
    }
    if (awaitingSummary && line.trim() === '') continue;
    const t = tagLine(line);
    if (awaitingSummary) {
      if (t && 'summary' in t) {
        awaitingSummary.summary = t.summary;
        awaitingSummary = null;
        continue;
      }
      awaitingSummary = null;
    }
    if (line.startsWith('$$')) {
      const trimmed = line.trimEnd();
      if (trimmed === '$$') {
        flush();
        math = [];
        continue;
      }
      if (trimmed.length >= 4 && trimmed.endsWith('$$')) {
        flush();
        top().children.push({ kind: 'tag', tag: { name: 'math', attrs: {}, children: [], formula: trimmed.slice(2, -2), line } });
        continue;
      }
    }
    if (!t || 'summary' in t) {
      buf.push(line);
      continue;
    }
    if ('details' in t) {
      const tag: TagNode = { name: 'details', attrs: t.details ? { open: 'true' } : {}, children: [], line };
      if (open(tag)) awaitingSummary = tag;
      continue;
    }
    if ('endDetails' in t) {
      if (top().name === 'details') close();
      else buf.push(line);
      continue;
    }
    if ('close' in t) {
      if (top().name === t.close && stack.length > 1) close();
      else if (!VOIDS.has(t.close)) buf.push(line); // a void's end tag (its caption's) is dropped
      continue;
    }
    const name = t.open;
    if (VOIDS.has(name)) {
      const needs = name === 'embed' ? 'url' : 'src';
      if (t.attrs[needs] === undefined) {
        buf.push(line);
        continue;
      }
      flush();
      top().children.push({ kind: 'tag', tag: { name, attrs: t.attrs, children: [], line } });
      continue;
    }
    const rule = CONTAINERS[name];
    const wellFormed =
      rule !== undefined &&
      (rule.parent === undefined ? top().name !== 'tabs' && top().name !== 'stepper' : top().name === rule.parent) &&
      (name !== 'hint' || HINT_STYLES.has(t.attrs.style ?? '')) &&
      (name !== 'content-ref' || t.attrs.url !== undefined) &&
      (name !== 'openapi' || t.attrs.src !== undefined);
    if (!wellFormed) {
      buf.push(line);
      continue;
    }
    open({ name, attrs: t.attrs, children: [], line });
  }
  if (math) buf.push('$$', ...math);
  flush();
  if (stack.length === 1) return root.children;
  // Containers never closed: their opening line is text, their content stays in their parent. Each
  // is its parent's last child (what followed it went into it): one pass over the chain.
  const flat: Segment[] = [];
  stack.forEach((tag, i) => {
    if (i > 0) {
      flat.push({ kind: 'md', text: tag.line });
      if (tag.summary !== undefined) flat.push({ kind: 'md', text: `<summary>${tag.summary}</summary>` });
    }
    const n = i < stack.length - 1 ? tag.children.length - 1 : tag.children.length;
    for (let j = 0; j < n; j++) flat.push(tag.children[j]);
  });
  return flat;
}
