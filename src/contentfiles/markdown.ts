/**
 * A page's document (the official JSONDocument) as GitBook's Markdown, the syntax Git Sync writes
 * (docs/content-export.md): CommonMark and GFM for what they carry, GitBook's `{% … %}` blocks for
 * hints, tabs, embeds, files, content references, steppers, columns, updates and OpenAPI blocks,
 * HTML where GitBook writes HTML (figures with captions, `<details>`, `<kbd>`, `<sup>`, `<mark>`).
 *
 * References are rewritten by the caller's `LinkTargets`: a page, an anchor or a file of the space
 * becomes a path relative to the page's file. What the Markdown cannot carry (a block or an inline
 * without a syntax, a data field the syntax has no place for, a reference out of the space) is
 * named in `losses`: the exporter then keeps the document JSON beside the page. Nothing is dropped
 * without being named there.
 *
 * Pure: no I/O, no HTTP; the page's title and front matter are the layout's (layout.ts).
 */
import type * as M from 'mdast';
import { WRITER_OPTIONS } from '../markdown/writer.js';
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';

/** Any node of a document, as JSON (the writer reads what it knows and names the rest). */
export interface AnyNode {
  object?: string;
  type?: string;
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  nodes?: AnyNode[];
  leaves?: { object?: string; text?: string; marks?: { type?: string; data?: Record<string, unknown> }[] }[];
  fragments?: (AnyNode & { fragment?: string })[];
  meta?: Record<string, unknown>;
}

/** A reference of the document (the official ContentRef), as JSON. */
export interface RefLike {
  kind?: string;
  page?: string;
  anchor?: string;
  file?: string;
  url?: string;
  space?: string;
  spec?: string;
  [k: string]: unknown;
}

/** Where references lead from the page being written; undefined: out of the export (a loss). */
export interface LinkTargets {
  /** The href of a reference (page, anchor, file, url), relative to the page's file where it is in the space. */
  href(ref: RefLike): string | undefined;
}

export interface Rendered {
  /** The body: Markdown ending with one newline (empty for an empty document). */
  markdown: string;
  /** What the Markdown could not carry, one short phrase each (sorted, unique). */
  losses: string[];
}

/** Writer options: the sandbox's dialect (src/markdown/writer.ts; src/server/lib/markdown.ts writes the same). */
const TO_MARKDOWN: ToMarkdownOptions = WRITER_OPTIONS;

/** The page body's heading levels: the page title is the file's only `#` (Git Sync). */
const HEADING_DEPTH: Record<string, 2 | 3 | 4> = { 'heading-1': 2, 'heading-2': 3, 'heading-3': 4 };

/** The deepest nesting of nodes written (the writer recurses a level at a time): deeper, the document is only kept as JSON. */
const MAX_DOCUMENT_DEPTH = 200;

/** How deep a document's nodes nest (walked without recursion). */
function depthOf(nodes: readonly unknown[]): number {
  let deepest = 0;
  const stack: [unknown, number][] = nodes.map((n) => [n, 1]);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (depth > MAX_DOCUMENT_DEPTH || !node || typeof node !== 'object') continue;
    const n = node as AnyNode;
    for (const child of Array.isArray(n.nodes) ? n.nodes : []) stack.push([child, depth + 1]);
    for (const f of Array.isArray(n.fragments) ? n.fragments : []) for (const child of Array.isArray(f?.nodes) ? f.nodes : []) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Render a document's blocks as GitBook Markdown. */
export function documentToMarkdown(doc: { nodes?: readonly unknown[] } | undefined, targets: LinkTargets): Rendered {
  if (depthOf(doc?.nodes ?? []) > MAX_DOCUMENT_DEPTH) return { markdown: '', losses: [`document nested deeper than ${MAX_DOCUMENT_DEPTH} levels`] };
  const w = new Writer(targets);
  const markdown = w.flowText((doc?.nodes ?? []) as AnyNode[]);
  return { markdown: markdown ? `${markdown}\n` : '', losses: [...w.losses].sort() };
}

/** An attribute value of a `{% tag %}` or an HTML tag: quotes escaped. */
function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, ' ');
}

type Unit =
  | { k: 'text'; text: string; marks: string[] }
  | { k: 'node'; node: M.PhrasingContent; marks: string[] }
  | { k: 'link'; url: string; units: Unit[]; marks: string[] };

/** Marks written by wrapping (mdast nodes, or HTML tags where Markdown has none). */
const WRAPPING = ['bold', 'italic', 'strikethrough', 'keyboard', 'superscript', 'subscript', 'color'];
const HTML_MARK: Record<string, [string, string]> = {
  keyboard: ['<kbd>', '</kbd>'],
  superscript: ['<sup>', '</sup>'],
  subscript: ['<sub>', '</sub>'],
};

class Writer {
  readonly losses = new Set<string>();

  constructor(private readonly targets: LinkTargets) {}

  lose(what: string): void {
    this.losses.add(what);
  }

  /** Blocks as Markdown text (no final newline). */
  flowText(nodes: readonly AnyNode[]): string {
    const children = this.flow(nodes);
    if (children.length === 0) return '';
    return toMarkdown({ type: 'root', children }, TO_MARKDOWN).replace(/\n+$/, '');
  }

  /** A GitBook block: its opening line, its body's Markdown, its closing line, as raw flow. */
  private tag(open: string, body: string, close: string): M.Html {
    return { type: 'html', value: tagText(open, body, close) };
  }

  /** A GitBook block of items (tabs, steps, columns, updates): the items a blank line apart between its lines. */
  private group(open: string, items: string[], close: string): M.Html {
    return { type: 'html', value: items.length ? `${open}\n${items.join('\n\n')}\n${close}` : `${open}\n${close}` };
  }

  private unknownData(b: AnyNode, known: readonly string[]): void {
    for (const [k, v] of Object.entries(b.data ?? {})) {
      if (v !== undefined && v !== null && v !== false && !known.includes(k)) this.lose(`${b.type}.${k}`);
    }
  }

  flow(nodes: readonly AnyNode[]): M.RootContent[] {
    const out: M.RootContent[] = [];
    for (const b of nodes) {
      if (b.object !== 'block') {
        if (b.object === 'text' || b.object === 'inline') out.push({ type: 'paragraph', children: this.phrasing([b]) });
        continue;
      }
      out.push(...this.block(b));
    }
    return out;
  }

  private blocksOf(b: AnyNode): AnyNode[] {
    return (b.nodes ?? []).filter((n) => n.object === 'block');
  }

  private fragment(b: AnyNode, name: string): AnyNode | undefined {
    return b.fragments?.find((f) => f.fragment === name || f.type === name);
  }

  private block(b: AnyNode): M.RootContent[] {
    const data = b.data ?? {};
    const type = b.type ?? '';
    const depth = HEADING_DEPTH[type];
    if (depth) {
      this.unknownData(b, ['id']);
      const children = this.phrasing(b.nodes ?? []);
      const id = typeof data.id === 'string' ? data.id : '';
      // A heading's own anchor, when it is not the one its text gives: GitBook's `<a>` after the text.
      if (id && id !== anchorOf(plainText(b.nodes ?? []))) children.push({ type: 'html', value: ` <a href="#${attr(id)}" id="${attr(id)}"></a>` } as M.Html);
      return [{ type: 'heading', depth, children }];
    }
    switch (type) {
      case 'paragraph':
        if (data.align && data.align !== 'start' && data.align !== 'left') this.lose('paragraph.align');
        return [{ type: 'paragraph', children: this.phrasing(b.nodes ?? []) }];
      case 'divider':
        return [{ type: 'thematicBreak' }];
      case 'blockquote':
        return [{ type: 'blockquote', children: this.flow(this.blocksOf(b)) as M.BlockContent[] }];
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks': {
        const tasks = type === 'list-tasks';
        return [
          {
            type: 'list',
            ordered: type === 'list-ordered',
            spread: false,
            ...(type === 'list-ordered' ? { start: typeof data.start === 'number' ? data.start : 1 } : {}),
            children: this.blocksOf(b).map((item) => {
              const checked = item.data?.checked === true;
              return {
                type: 'listItem',
                spread: false,
                ...(tasks ? { checked } : {}),
                children: this.flow(item.object === 'block' && item.type === 'list-item' ? this.blocksOf(item) : [item]) as M.ListItem['children'],
              };
            }),
          },
        ];
      }
      case 'code':
        return [this.code(b)];
      case 'hint': {
        this.unknownData(b, ['style']);
        const style = typeof data.style === 'string' ? data.style : 'info';
        return [this.tag(`{% hint style="${attr(style)}" %}`, this.flowText(this.blocksOf(b)), '{% endhint %}')];
      }
      case 'tabs': {
        this.unknownData(b, []);
        const items = this.blocksOf(b).map((item) => {
          this.unknownData(item, ['title']);
          const title = typeof item.data?.title === 'string' ? item.data.title : '';
          return tagText(`{% tab title="${attr(title)}" %}`, this.flowText(this.blocksOf(item)), '{% endtab %}');
        });
        return [this.group('{% tabs %}', items, '{% endtabs %}')];
      }
      case 'expandable': {
        this.unknownData(b, ['defaultExpanded']);
        const title = this.fragment(b, 'expandable-title');
        const body = this.fragment(b, 'expandable-body');
        const summary = this.inlineHtml(title?.nodes?.flatMap((p) => p.nodes ?? []) ?? []);
        const inner = this.flowText(body?.nodes ?? []);
        return [
          {
            type: 'html',
            value: `<details${data.defaultExpanded ? ' open' : ''}>\n\n<summary>${summary}</summary>\n\n${inner}${inner ? '\n\n' : ''}</details>`,
          },
        ];
      }
      case 'embed': {
        this.unknownData(b, ['url', 'fullWidth']);
        const url = typeof data.url === 'string' ? data.url : '';
        return [{ type: 'html', value: `{% embed url="${attr(url)}"${data.fullWidth ? ' fullWidth="true"' : ''} %}` }];
      }
      case 'file': {
        this.unknownData(b, ['ref']);
        const src = this.refHref(data.ref, 'file');
        const caption = this.fragment(b, 'caption');
        const text = caption ? this.flowText(caption.nodes ?? []) : '';
        return [this.tag(`{% file src="${attr(src ?? '')}" %}`, text, '{% endfile %}')];
      }
      case 'content-ref': {
        this.unknownData(b, ['ref']);
        const href = this.refHref(data.ref, 'content-ref');
        if (href === undefined) return [];
        return [this.tag(`{% content-ref url="${attr(href)}" %}`, `[${escapeLinkText(href)}](${destination(href)})`, '{% endcontent-ref %}')];
      }
      case 'images':
        return this.images(b);
      case 'image':
        return this.images({ ...b, type: 'images', data: {}, nodes: [b] });
      case 'drawing': {
        this.lose('drawing');
        const src = this.refHref(data.ref, 'drawing');
        return src === undefined ? [] : [{ type: 'paragraph', children: [{ type: 'image', url: src, alt: '' }] }];
      }
      case 'table':
        return [this.table(b)];
      case 'math':
        return [{ type: 'html', value: `$$\n${typeof data.formula === 'string' ? data.formula : ''}\n$$` }];
      case 'stepper':
        this.unknownData(b, []);
        return [
          this.group(
            '{% stepper %}',
            this.blocksOf(b).map((step) => {
              this.unknownData(step, []);
              return tagText('{% step %}', this.flowText(this.blocksOf(step)), '{% endstep %}');
            }),
            '{% endstepper %}',
          ),
        ];
      case 'columns': {
        this.unknownData(b, []);
        const cols = this.blocksOf(b).map((col) => {
          this.unknownData(col, ['width']);
          const width = lengthOf(col.data?.width);
          return tagText(`{% column${width ? ` width="${attr(width)}"` : ''} %}`, this.flowText(this.blocksOf(col)), '{% endcolumn %}');
        });
        return [this.group('{% columns %}', cols, '{% endcolumns %}')];
      }
      case 'updates': {
        this.unknownData(b, ['format']);
        const format = typeof data.format === 'string' ? ` format="${attr(data.format)}"` : '';
        const items = this.blocksOf(b).map((u) => {
          this.unknownData(u, ['date']);
          const date = typeof u.data?.date === 'string' ? u.data.date : '';
          return tagText(`{% update date="${attr(date)}" %}`, this.flowText(this.blocksOf(u)), '{% endupdate %}');
        });
        return [this.group(`{% updates${format} %}`, items, '{% endupdates %}')];
      }
      case 'swagger': {
        this.unknownData(b, ['ref', 'path', 'method']);
        const src = this.refHref(data.ref, 'swagger') ?? '';
        const path = typeof data.path === 'string' ? data.path : '';
        const method = typeof data.method === 'string' ? data.method : '';
        return [
          this.tag(
            `{% openapi src="${attr(src)}" path="${attr(path)}" method="${attr(method)}" %}`,
            `[${escapeLinkText(src)}](${destination(src)})`,
            '{% endopenapi %}',
          ),
        ];
      }
      case 'openapi-operation':
      case 'openapi-webhook':
      case 'openapi-schemas': {
        const pointer = type === 'openapi-schemas' ? ['schemas', 'grouped', 'title'] : type === 'openapi-webhook' ? ['name', 'method'] : ['path', 'method'];
        this.unknownData(b, ['ref', ...pointer]);
        const ref = (data.ref ?? {}) as RefLike;
        if (ref.kind !== 'openapi') this.lose(`${type} reference of kind ${ref.kind ?? 'none'}`);
        const spec = typeof ref.spec === 'string' ? ref.spec : '';
        const attrs = pointer
          .map((k) => [k, Array.isArray(data[k]) ? (data[k] as unknown[]).join(',') : data[k]] as const)
          .filter(([, v]) => typeof v === 'string' || typeof v === 'boolean')
          .map(([k, v]) => ` ${k}="${attr(String(v))}"`)
          .join('');
        return [this.tag(`{% ${type} spec="${attr(spec)}"${attrs} %}`, '', `{% end${type} %}`)];
      }
      case 'integration': {
        const url = typeof data.url === 'string' ? data.url : '';
        this.lose('integration');
        return url ? [{ type: 'html', value: `{% embed url="${attr(url)}" %}` }] : [];
      }
      case 'prompt': {
        this.lose('prompt');
        return this.flow(this.blocksOf(b));
      }
      case 'if':
        this.lose('if');
        return this.flow(this.blocksOf(b));
      case 'reusable-content':
        this.lose('reusable-content');
        return [];
      default:
        this.lose(type || 'block');
        return this.blocksOf(b).length ? this.flow(this.blocksOf(b)) : b.nodes?.length ? [{ type: 'paragraph', children: this.phrasing(b.nodes) }] : [];
    }
  }

  private code(b: AnyNode): M.RootContent {
    const data = b.data ?? {};
    this.unknownData(b, ['syntax', 'title', 'lineNumbers', 'overflow', 'fullWidth', 'expandable']);
    const lines = this.blocksOf(b).map((line) => {
      if (line.data?.highlighted) this.lose('code-line.highlighted');
      return plainText(line.nodes ?? []);
    });
    const fence: M.Code = { type: 'code', lang: typeof data.syntax === 'string' && data.syntax ? data.syntax : null, value: lines.join('\n') };
    const attrs = [
      typeof data.title === 'string' && data.title ? ` title="${attr(data.title)}"` : '',
      data.lineNumbers === true ? ' lineNumbers="true"' : '',
      data.overflow === 'wrap' ? ' overflow="wrap"' : '',
      data.fullWidth === true ? ' fullWidth="true"' : '',
      data.expandable === true ? ' expandable="true"' : '',
    ].join('');
    if (!attrs) return fence;
    const text = toMarkdown({ type: 'root', children: [fence] }, TO_MARKDOWN).replace(/\n+$/, '');
    return this.tag(`{% code${attrs} %}`, text, '{% endcode %}');
  }

  private images(b: AnyNode): M.RootContent[] {
    this.unknownData(b, []);
    const imgs = this.blocksOf(b);
    const html: string[] = [];
    const plain: M.Image[] = [];
    let figures = false;
    for (const img of imgs) {
      const data = img.data ?? {};
      this.unknownData(img, ['ref', 'alt', 'width']);
      const src = this.refHref(data.ref, 'image') ?? '';
      const alt = typeof data.alt === 'string' ? data.alt : '';
      const caption = this.fragment(img, 'caption');
      const captionHtml = caption ? this.inlineHtml((caption.nodes ?? []).flatMap((p) => p.nodes ?? [])) : '';
      const length = lengthOf(data.width);
      const width = length ? ` width="${attr(length)}"` : '';
      if (captionHtml || width) figures = true;
      html.push(`<figure><img src="${attr(src)}" alt="${attr(alt)}"${width}>${captionHtml ? `<figcaption><p>${captionHtml}</p></figcaption>` : ''}</figure>`);
      plain.push({ type: 'image', url: src, alt });
    }
    if (imgs.length === 0) return [];
    if (!figures) {
      const children: M.PhrasingContent[] = [];
      plain.forEach((img, i) => {
        if (i > 0) children.push({ type: 'text', value: ' ' });
        children.push(img);
      });
      return [{ type: 'paragraph', children }];
    }
    return [{ type: 'html', value: html.length === 1 ? html[0] : `<div>${html.join('')}</div>` }];
  }

  private table(b: AnyNode): M.Table {
    const data = (b.data ?? {}) as {
      view?: { type?: string; columns?: string[] };
      records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
      definition?: Record<string, { title?: string; type?: string; textAlignment?: string }>;
      cellMerges?: unknown;
    };
    this.unknownData(b, ['view', 'records', 'definition']);
    if (data.view?.type && data.view.type !== 'grid') this.lose('table.view');
    const columns = data.view?.columns ?? Object.keys(data.definition ?? {});
    const fragments = new Map((b.fragments ?? []).map((f) => [f.fragment, f]));
    const cell = (column: string, value: unknown): M.TableCell => {
      const kind = data.definition?.[column]?.type ?? 'text';
      if (kind !== 'text') this.lose(`table column of type ${kind}`);
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      if (fragment) {
        const blocks = fragment.nodes ?? [];
        if (blocks.length > 1 || blocks.some((n) => n.type !== 'paragraph')) this.lose('table cell of more than a paragraph');
        return { type: 'tableCell', children: blocks.flatMap((n, i) => [...(i > 0 ? [{ type: 'break' } as M.Break] : []), ...this.phrasing(n.nodes ?? [])]) };
      }
      if (value === undefined || value === null || value === '') return { type: 'tableCell', children: [] };
      return { type: 'tableCell', children: [{ type: 'text', value: Array.isArray(value) ? value.join(', ') : String(value) }] };
    };
    const records = Object.values(data.records ?? {}).sort((x, y) =>
      (x.orderIndex ?? '') < (y.orderIndex ?? '') ? -1 : (x.orderIndex ?? '') > (y.orderIndex ?? '') ? 1 : 0,
    );
    return {
      type: 'table',
      align: columns.map((c) => {
        const a = data.definition?.[c]?.textAlignment;
        return a === 'center' || a === 'right' ? a : null;
      }),
      children: [
        { type: 'tableRow', children: columns.map((c) => ({ type: 'tableCell', children: textNodes(data.definition?.[c]?.title ?? '') })) },
        ...records.map((r): M.TableRow => ({ type: 'tableRow', children: columns.map((c) => cell(c, r.values?.[c])) })),
      ],
    };
  }

  /** The href of a reference, or undefined (a loss named by `where`). */
  private refHref(ref: unknown, where: string): string | undefined {
    const href = ref && typeof ref === 'object' ? this.targets.href(ref as RefLike) : undefined;
    if (href === undefined) this.lose(`${where} reference out of the export`);
    return href;
  }

  /** Inline content as HTML-safe Markdown (a `<summary>`, a figure caption). */
  private inlineHtml(nodes: readonly AnyNode[]): string {
    const children = this.phrasing(nodes);
    if (children.length === 0) return '';
    return toMarkdown({ type: 'paragraph', children }, TO_MARKDOWN).replace(/\n+$/, '').replace(/\n/g, ' ');
  }

  // -------------------------------------------------------------------------------------------
  // Inline content

  phrasing(nodes: readonly AnyNode[]): M.PhrasingContent[] {
    return this.units(this.unitsOf(nodes), []);
  }

  private unitsOf(nodes: readonly AnyNode[]): Unit[] {
    const out: Unit[] = [];
    for (const n of nodes) {
      if (n.object === 'text') {
        for (const leaf of n.leaves ?? []) {
          const marks: string[] = [];
          for (const m of leaf.marks ?? []) {
            const t = m.type ?? '';
            if (t === 'color') marks.push(`color:${colourStyle(m.data)}`);
            else if (t === 'bold' || t === 'italic' || t === 'strikethrough' || t === 'code' || t in HTML_MARK) marks.push(t);
            else this.lose(`mark ${t}`);
          }
          if (leaf.text) out.push({ k: 'text', text: leaf.text, marks });
        }
        continue;
      }
      if (n.object !== 'inline') continue;
      const data = n.data ?? {};
      switch (n.type) {
        case 'link': {
          const href = this.refHref(data.ref, 'link');
          const inner = this.unitsOf(n.nodes ?? []);
          if (href === undefined) out.push(...inner);
          else out.push({ k: 'link', url: href, units: inner, marks: [] });
          break;
        }
        case 'mention': {
          const ref = (data.ref ?? {}) as RefLike;
          const href = ref.kind === 'page' || ref.kind === 'anchor' || ref.kind === 'file' || ref.kind === 'url' ? this.refHref(ref, 'mention') : undefined;
          if (href === undefined) {
            this.lose(`mention of a ${ref.kind ?? 'reference'}`);
            break;
          }
          out.push({ k: 'link', url: href, units: [{ k: 'text', text: href, marks: [] }], marks: [] });
          break;
        }
        case 'inline-image': {
          this.unknownData(n, ['ref', 'alt', 'caption', 'size']);
          const src = this.refHref(data.ref, 'inline image') ?? '';
          out.push({ k: 'node', node: { type: 'image', url: src, alt: typeof data.alt === 'string' ? data.alt : '' }, marks: [] });
          break;
        }
        case 'emoji': {
          const code = typeof data.code === 'string' ? data.code : '';
          const text = emojiOf(code);
          if (text === undefined) this.lose('emoji');
          else out.push({ k: 'text', text, marks: [] });
          break;
        }
        case 'inline-math':
          out.push({ k: 'node', node: { type: 'html', value: `$$${typeof data.formula === 'string' ? data.formula : ''}$$` }, marks: [] });
          break;
        case 'button': {
          const href = data.ref ? this.refHref(data.ref, 'button') : undefined;
          if (href === undefined) {
            this.lose('button');
            break;
          }
          const label = typeof data.label === 'string' ? data.label : '';
          const kind = typeof data.kind === 'string' ? data.kind : 'primary';
          this.unknownData(n, ['ref', 'label', 'kind']);
          out.push({ k: 'node', node: { type: 'html', value: `<a href="${attr(href)}" class="button ${attr(kind)}">${escapeHtml(label)}</a>` }, marks: [] });
          break;
        }
        case 'annotation':
          this.lose('annotation');
          out.push(...this.unitsOf(n.nodes ?? []));
          break;
        default:
          this.lose(`inline ${n.type ?? ''}`.trim());
          out.push(...this.unitsOf(n.nodes ?? []));
      }
    }
    return out;
  }

  /** Units as phrasing content: a mark wraps the longest stretch of units having it (as the sandbox's writer does). */
  private units(units: Unit[], open: readonly string[]): M.PhrasingContent[] {
    const out: M.PhrasingContent[] = [];
    let i = 0;
    while (i < units.length) {
      const unit = units[i];
      let best: { mark: string; end: number } | null = null;
      for (const mark of unit.marks) {
        if (mark === 'code' || open.includes(mark)) continue;
        let end = i + 1;
        while (end < units.length && units[end].marks.includes(mark)) end++;
        if (!best || end > best.end || (end === best.end && rank(mark) < rank(best.mark))) best = { mark, end };
      }
      if (best) {
        const inner = this.units(units.slice(i, best.end), [...open, best.mark]);
        out.push(...wrap(best.mark, inner));
        i = best.end;
        continue;
      }
      if (unit.k === 'link') out.push({ type: 'link', url: unit.url, children: this.units(unit.units, open) as M.Link['children'] });
      else if (unit.k === 'node') out.push(unit.node);
      else if (unit.marks.includes('code')) out.push({ type: 'inlineCode', value: unit.text.replace(/\n/g, ' ') });
      else out.push(...textNodes(unit.text));
      i++;
    }
    return out;
  }
}

/** `open`, the body, `close`, a line each. */
function tagText(open: string, body: string, close: string): string {
  return body ? `${open}\n${body}\n${close}` : `${open}\n${close}`;
}

/** A Length (a number, or a value with its unit) as GitBook writes it in an attribute (`50%`, `320`). */
function lengthOf(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object') {
    const { value: n, unit } = value as { value?: unknown; unit?: unknown };
    if (typeof n === 'number') return `${n}${typeof unit === 'string' ? unit : ''}`;
  }
  return undefined;
}

function rank(mark: string): number {
  const i = WRAPPING.indexOf(mark.startsWith('color:') ? 'color' : mark);
  return i < 0 ? WRAPPING.length : i;
}

function wrap(mark: string, children: M.PhrasingContent[]): M.PhrasingContent[] {
  if (mark === 'bold') return [{ type: 'strong', children }];
  if (mark === 'italic') return [{ type: 'emphasis', children }];
  if (mark === 'strikethrough') return [{ type: 'delete', children }];
  if (mark.startsWith('color:')) return [{ type: 'html', value: `<mark style="${attr(mark.slice(6))}">` }, ...children, { type: 'html', value: '</mark>' }];
  const [open, close] = HTML_MARK[mark];
  return [{ type: 'html', value: open }, ...children, { type: 'html', value: close }];
}

/** Text with its hard breaks (`\n` in a leaf). */
function textNodes(text: string): M.PhrasingContent[] {
  const out: M.PhrasingContent[] = [];
  text.split('\n').forEach((line, j) => {
    if (j > 0) out.push({ type: 'break' });
    if (line) out.push({ type: 'text', value: line });
  });
  return out;
}

function colourStyle(data: Record<string, unknown> | undefined): string {
  const text = typeof data?.text === 'string' ? data.text : 'default';
  const bg = typeof data?.background === 'string' ? data.background : 'default';
  return `color:${text};background-color:${bg};`;
}

/** An emoji's code (`1f600`, `1f468-200d-1f4bb`) as its characters. */
function emojiOf(code: string): string | undefined {
  const points = code.split('-').map((p) => Number.parseInt(p, 16));
  if (points.length === 0 || points.some((p) => !Number.isInteger(p) || p < 0 || p > 0x10ffff)) return undefined;
  return String.fromCodePoint(...points);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeLinkText(text: string): string {
  return text.replace(/[\\[\]]/g, '\\$&');
}

/** A link destination: in `<…>` when it has spaces or parentheses. */
function destination(href: string): string {
  return /[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, encodeURIComponent)}>` : href;
}

/** The plain text of inline content (code lines, titles). */
export function plainText(nodes: readonly AnyNode[]): string {
  return nodes
    .map((n) =>
      n.object === 'text' ? (n.leaves ?? []).map((l) => l.text ?? '').join('') : n.object === 'inline' && n.type === 'emoji' ? '' : plainText(n.nodes ?? []),
    )
    .join('');
}

/** The anchor a heading's text gives (lowercase, words joined by `-`, as GitBook and the sandbox make them). */
function anchorOf(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}
