/**
 * The Markdown pipeline (src/server/lib/markdown.ts): one CommonMark+GFM dialect for documents,
 * links, sections and imported HTML, and its nesting bounds.
 */
import fc from 'fast-check';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import type { Root } from 'mdast';
import { describe, expect, it } from 'vitest';
import { rewriteLinks } from '../../src/server/content/links.js';
import {
  checkMarkdown,
  documentToMarkdown,
  extractLinks,
  markdownNesting,
  markdownToDocument,
  MarkdownTooDeep,
  MAX_NESTING,
  nestingBound,
  splitSections,
  writeMarkdown,
  type BlockNode,
  type DocumentNode,
  type InlineNode,
  type TextNode,
} from '../../src/server/lib/markdown.js';
import { slugify } from '../../src/server/lib/slug.js';
import { cpuMs } from '../helpers/timing.js';

/** Compact view of a document: blocks as { type, data?, children }, text as [text, marks] pairs. */
function shape(nodes: (BlockNode | TextNode | InlineNode)[]): unknown[] {
  return nodes.map((node) => {
    if (node.object === 'text') return node.leaves.map((l) => [l.text, l.marks.map((m) => m.type).join('+')]);
    if (node.object === 'inline') return { link: node.data.ref.url, text: shape(node.nodes) };
    const data = Object.keys(node.data).length > 0 && node.type !== 'table' ? { data: node.data } : {};
    const fragments = node.fragments?.length ? { cells: node.fragments.map((f) => shape(f.nodes)) } : {};
    return { type: node.type, ...data, children: shape(node.nodes), ...fragments };
  });
}

/** The meaning of Markdown: its document, keys aside. */
const meaning = (md: string) => shape(markdownToDocument(md).nodes);
const htmlToMarkdown = (html: string) => writeMarkdown(toMdast(fromHtml(html, { fragment: true })) as Root);

describe('slugify', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['Crème brûlée à la carte', 'creme-brulee-a-la-carte'],
    ['  --Foo__Bar--  ', 'foo-bar'],
    ['Straße & Smørrebrød', 'strasse-smorrebrod'],
    ['Ünïcödé 123', 'unicode-123'],
    ['API v2.0 (beta)!', 'api-v2-0-beta'],
    ['', 'page'],
    ['日本語', 'page'],
  ])('%j -> %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('caps the length without a trailing dash, and takes another fallback', () => {
    expect(slugify('word '.repeat(60))).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(slugify('word '.repeat(60)).length).toBeLessThanOrEqual(100);
    expect(slugify('word '.repeat(60), 'x', 90).length).toBeLessThanOrEqual(90);
    expect(slugify('!!!', 'space')).toBe('space');
  });
});

describe('markdownToDocument', () => {
  it('numbers block keys in base 36, in document order', () => {
    const doc = markdownToDocument('# A\n\n- b\n- c\n\n> d');
    const keys: string[] = [];
    const walk = (nodes: BlockNode['nodes']) =>
      nodes.forEach((n) => {
        if (n.object === 'block') {
          keys.push(n.key);
          walk(n.nodes);
        }
      });
    walk(doc.nodes);
    expect(keys).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
  });

  it('reads headings (4-6 as heading-3), marks, links, hard breaks and soft breaks', () => {
    expect(meaning('#### Deep\n\n**b** _i_ ~~s~~ `c` [l](/x)\nnext line\\\nbroken')).toEqual([
      { type: 'heading-3', children: [[['Deep', '']]] },
      {
        type: 'paragraph',
        children: [
          [
            ['b', 'bold'],
            [' ', ''],
            ['i', 'italic'],
            [' ', ''],
            ['s', 'strikethrough'],
            [' ', ''],
            ['c', 'code'],
            [' ', ''],
          ],
          { link: '/x', text: [[['l', '']]] },
          [[' next line\nbroken', '']],
        ],
      },
    ]);
  });

  it('reads reference links with the destination of their definition, and images alone as an images block', () => {
    expect(meaning('[the guide][g] and [g]\n\n![A *cat*](cat.png)\n\n[G]: /guide "Title"')).toEqual([
      {
        type: 'paragraph',
        children: [[], { link: '/guide', text: [[['the guide', '']]] }, [[' and ', '']], { link: '/guide', text: [[['g', '']]] }].filter(
          (x) => !Array.isArray(x) || x.length,
        ),
      },
      { type: 'images', children: [{ type: 'image', data: { ref: { kind: 'url', url: 'cat.png' }, alt: 'A cat' }, children: [] }] },
    ]);
  });

  it('reads code of every kind as code, never as links', () => {
    const md = '    [indented](/a)\n\n```js\n[fenced](/b)\n```\n\n~~~\n<https://c.io>\n~~~\n\n- item\n\n      [in a list](/d)\n\nand `[span](/e)`';
    const doc = meaning(md);
    expect(JSON.stringify(doc)).not.toContain('"link"');
    expect(doc[0]).toEqual({ type: 'code', children: [{ type: 'code-line', children: [[['[indented](/a)', '']]] }] });
    expect(doc[1]).toMatchObject({ type: 'code', data: { syntax: 'js' } });
    expect(extractLinks(md)).toEqual([]);
  });

  it('makes a GFM table the official grid table, a task list list-tasks, entities their characters', () => {
    const doc = markdownToDocument('| A | B |\n|---|--:|\n| 1 | **2** |\n\n- [x] done\n- [ ] todo\n\n&copy; &amp; &#x41;');
    const [table, tasks, text] = doc.nodes;
    expect(table).toMatchObject({
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
        definition: { c1: { id: 'c1', type: 'text', title: 'A', textAlignment: 'left' }, c2: { title: 'B', textAlignment: 'right' } },
        records: { r1: { values: { c1: 'r1c1', c2: 'r1c2' } } },
      },
    });
    expect(shape(table.fragments![1].nodes)).toEqual([{ type: 'paragraph', children: [[['2', 'bold']]] }]);
    expect(shape([tasks])).toEqual([
      {
        type: 'list-tasks',
        children: [
          { type: 'list-item', data: { checked: true }, children: [{ type: 'paragraph', children: [[['done', '']]] }] },
          { type: 'list-item', data: { checked: false }, children: [{ type: 'paragraph', children: [[['todo', '']]] }] },
        ],
      },
    ]);
    expect(shape([text])).toEqual([{ type: 'paragraph', children: [[['© & A', '']]] }]);
  });
});

/** CommonMark and GFM examples that matter to docs, as HTML a site would serve. */
const HTML_CASES: Record<string, { html: string; markdown?: RegExp }> = {
  table: {
    html: '<table><thead><tr><th>Name</th><th>Type</th></tr></thead><tbody><tr><td><code>id</code></td><td>string</td></tr><tr><td>a | b</td><td><a href="/t">link</a></td></tr></tbody></table>',
    markdown: /^\| Name +\| Type +\|$/m,
  },
  'hard break': { html: '<p>line one<br>line two</p>', markdown: /one\\\nline two/ },
  'code block with a language': { html: '<pre><code class="language-ts">const a = `[x](/y)`;\n\nif (a) {}\n</code></pre>', markdown: /^```ts$/m },
  'code block with backticks': { html: '<pre><code>```\ninside\n```</code></pre>' },
  'nested lists': { html: '<ul><li>one<ul><li>one.a<ol start="3"><li>three</li><li>four</li></ol></li></ul></li><li>two</li></ul>' },
  entities: { html: '<p>&lt;tag&gt; &amp; &copy; &#x41; 5 * 3 _x_ [y] #z</p>', markdown: /&lt;tag>|\\<tag>|<tag>/ },
  'quote with a list': { html: '<blockquote><p>Note:</p><ul><li>a</li></ul></blockquote>' },
  'marks and links': {
    html: '<p><strong>bold <em>both</em></strong> <del>gone</del> <a href="https://x.io/a_(b)">paren link</a> <img src="/i.png" alt="i"></p>',
  },
};

describe('HTML → Markdown → document → Markdown keeps the meaning', () => {
  for (const [name, { html, markdown: expected }] of Object.entries(HTML_CASES)) {
    it(name, () => {
      const md = htmlToMarkdown(html);
      if (expected) expect(md).toMatch(expected);
      const doc = markdownToDocument(md);
      const again = documentToMarkdown(doc);
      expect(meaning(again)).toEqual(meaning(md));
      expect(documentToMarkdown(markdownToDocument(again))).toBe(again);
    });
  }

  it('an empty list item stays apart from the paragraph beside it, and a list starting with a rule from the list before it (found by the property below)', () => {
    for (const md of [
      '- alpha\n\n    1. 1.\n    alpha',
      '1. alpha\n\n   1.\n\n   beta',
      'alpha\n\n1. 1. 1.\n\nbeta',
      // Three lists, the last starting with a rule: not the second's bullet again.
      '* *[alpha](<https://x.io>)*\n\n- [x] alpha\n\n* ---',
      '- a\n\n* b\n\n- ---\n- c',
    ]) {
      const doc = markdownToDocument(md);
      const again = documentToMarkdown(doc);
      expect(shape(markdownToDocument(again).nodes), JSON.stringify(md)).toEqual(shape(doc.nodes));
      expect(documentToMarkdown(markdownToDocument(again))).toBe(again);
    }
  });

  it('an HTML table becomes a table, <br> a hard break', () => {
    expect(markdownToDocument(htmlToMarkdown(HTML_CASES.table.html)).nodes[0].type).toBe('table');
    expect(meaning(htmlToMarkdown(HTML_CASES['hard break'].html))).toEqual([{ type: 'paragraph', children: [[['line one\nline two', '']]] }]);
  });

  it('round-trips generated Markdown (property)', () => {
    const word = fc.constantFrom('alpha', 'beta', 'x', '42', 'café', 'snake_case', 'a*b', '(paren)', 'end.', 'C#', '1.', 'wow!', '|', '&amp;', '<b>');
    const phrase = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
    const escaped = (s: string) => s.replace(/[*_#\\[\]!`|<&]/g, '\\$&');
    const inline: fc.Arbitrary<string> = fc.letrec<{ inline: string }>((tie) => ({
      inline: fc.oneof(
        { depthSize: 'small' },
        phrase.map(escaped),
        fc.tuple(fc.constantFrom('*', '_', '**', '~~'), tie('inline')).map(([d, s]) => `${d}${s}${d}`),
        phrase.map((s) => '`' + s + '`'),
        fc.tuple(phrase, fc.constantFrom('https://x.io', '/page', 'a b', '')).map(([t, u]) => `[${escaped(t)}](<${u}>)`),
        fc.array(tie('inline'), { minLength: 2, maxLength: 3 }).map((parts) => parts.join(' ')),
        fc.tuple(phrase, phrase).map(([a, b]) => `${escaped(a)}\\\n${escaped(b)}`),
      ),
    })).inline;
    const block: fc.Arbitrary<string> = fc.letrec<{ block: string }>((tie) => ({
      block: fc.oneof(
        { depthSize: 'small' },
        inline,
        fc.tuple(fc.integer({ min: 1, max: 6 }), phrase).map(([n, s]) => `${'#'.repeat(n)} ${escaped(s)}`),
        fc
          .tuple(fc.constantFrom('- ', '* ', '1. '), fc.array(tie('block'), { minLength: 1, maxLength: 3 }))
          .map(([m, items]) => items.map((it) => m + it.split('\n').join('\n' + ' '.repeat(m.length))).join('\n')),
        tie('block').map((s) =>
          s
            .split('\n')
            .map((l) => `> ${l}`)
            .join('\n'),
        ),
        fc.tuple(fc.constantFrom('', 'ts', 'sh'), fc.array(phrase, { maxLength: 3 })).map(([lang, lines]) => ['```' + lang, ...lines, '```'].join('\n')),
        fc.array(phrase, { minLength: 1, maxLength: 3 }).map((lines) => lines.map((l) => `    ${l}`).join('\n')),
        fc.array(phrase, { minLength: 1, maxLength: 3 }).map((items) => items.map((t) => `- [x] ${escaped(t)}`).join('\n')),
        fc.tuple(phrase, phrase).map(([a, b]) => `| ${escaped(a)} | h |\n|---|---|\n| ${escaped(b)} | c |`),
        fc.constantFrom('---', '![alt](pic.png)'),
      ),
    })).block;
    const markdown = fc.array(block, { minLength: 1, maxLength: 5 }).map((blocks) => blocks.join('\n\n'));
    fc.assert(
      fc.property(markdown, (md) => {
        const doc = markdownToDocument(md);
        expect(shape(markdownToDocument(documentToMarkdown(doc)).nodes)).toEqual(shape(doc.nodes));
      }),
      { numRuns: Number(process.env.MD_RUNS ?? 300) },
    );
  });
});

describe('nesting bounds', () => {
  const deep = {
    quotes: (n: number) => `${'> '.repeat(n)}x`,
    'list markers': (n: number) => `${'- '.repeat(n)}x`,
    'indented lists': (n: number) => Array.from({ length: n }, (_, i) => `${'  '.repeat(i)}- x`).join('\n'),
    emphasis: (n: number) => `${'*'.repeat(n)}x${'*'.repeat(n)}`,
    'emphasis words': (n: number) => `${'*a '.repeat(n)}x${' b*'.repeat(n)}`,
  };
  for (const [name, make] of Object.entries(deep)) {
    it(`refuses 5,000 levels of ${name} quickly, and reads them as text when stored`, () => {
      // CPU time: what reading costs, not how long a loaded machine kept it waiting.
      const ms = cpuMs(() => {
        expect(() => checkMarkdown(make(5000))).toThrow(MarkdownTooDeep);
        expect(markdownToDocument(make(5000)).nodes).toHaveLength(1);
        expect(extractLinks(make(5000))).toEqual([]);
      });
      expect(ms).toBeLessThan(5000);
    });
  }

  it(`accepts ${MAX_NESTING} levels of quotes and of lists`, () => {
    expect(() => checkMarkdown(deep.quotes(MAX_NESTING))).not.toThrow();
    expect(() => checkMarkdown(deep['list markers'](MAX_NESTING - 1))).not.toThrow();
    expect(() => checkMarkdown(deep['indented lists'](MAX_NESTING))).not.toThrow();
  });

  it('reads 5,000 brackets around one link (links do not nest) in time', () => {
    const ms = cpuMs(() => expect(extractLinks(`${'['.repeat(5000)}x${'](/a)'.repeat(5000)}`).map((l) => l.href)).toEqual(['/a']));
    expect(ms).toBeLessThan(5000);
  });

  it('does not count emphasis in code, nor balanced emphasis', () => {
    expect(() => checkMarkdown(`\`\`\`c\n${'*p = *q;\n'.repeat(500)}\`\`\`\n\n${'*a* '.repeat(500)}`)).not.toThrow();
  });

  it('bounds the nesting from the markers alone, never below what a parse finds', () => {
    // Text dense in every construct that nests (and in what could fool a count: entities, escapes, code, bare URLs).
    const pieces = [
      '> ',
      '- ',
      '* ',
      '+ ',
      '1. ',
      '2) ',
      '*',
      '**',
      '_',
      '__',
      '~~',
      '[',
      '](/a)',
      '[^1]',
      '[^1]: ',
      '<http://x.y>',
      'www.x.com ',
      'https://a.b/c ',
      'a@b.co ',
      '`',
      '```\n',
      '    ',
      '  ',
      '\n',
      '\n\n',
      'x',
      ' ',
      '&#42;',
      '\\*',
      '|',
      '| - |\n',
      '[x]: /y\n',
      '[x]',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        expect(markdownNesting(text)).toBeLessThanOrEqual(nestingBound(text));
      }),
      { numRuns: 400 },
    );
    // The examples above, built to nest: the bound holds there too.
    for (const make of Object.values(deep)) expect(markdownNesting(make(50))).toBeLessThanOrEqual(nestingBound(make(50)));
    // A comment of prose needs no parse: its bound is already far below the limit.
    expect(nestingBound('Is **this** right? See [the guide](/guide), step 3.')).toBeLessThan(MAX_NESTING);
  });

  it('refuses a document nested too deeply', () => {
    let node: BlockNode = {
      object: 'block',
      type: 'paragraph',
      key: '',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'x', marks: [] }] }],
    };
    for (let i = 0; i < 5000; i++) node = { object: 'block', type: 'blockquote', key: '', data: {}, nodes: [node] };
    const doc: DocumentNode = { object: 'document', data: { schemaVersion: 1 }, nodes: [node] };
    expect(() => documentToMarkdown(doc)).toThrow(MarkdownTooDeep);
  });
});

describe('extractLinks', () => {
  it('finds inline, reference, image and autolinks (GFM literals too) in source order', () => {
    const md = 'See [the *docs*](https://x.io/docs) and ![Logo](img/logo.png).\nMore at <https://y.io/z>, www.w.io and [ref].\n\n[ref]: /r';
    expect(extractLinks(md).map(({ written: _, ...l }) => l)).toEqual([
      { href: 'https://x.io/docs', text: 'the docs', offset: 4 },
      { href: 'img/logo.png', text: 'Logo', offset: 40, image: true },
      { href: 'https://y.io/z', text: 'https://y.io/z', offset: 71 },
      { href: 'http://www.w.io', text: 'www.w.io', offset: 89 },
      { href: '/r', text: 'ref', offset: 102 },
    ]);
  });

  it('finds an image inside a link text, and nothing in code or escaped brackets', () => {
    expect(extractLinks('[![x](/i.png)](/a) \\[no](/b) `[no](/c)`').map((l) => l.href)).toEqual(['/a', '/i.png']);
  });
});

describe('rewriteLinks', () => {
  it('replaces destinations in place: inline, reference definitions, autolinks; code untouched', () => {
    const md = '[a](/a "t") [b][r] <http://h/a> `[c](/a)`\n\n    [d](/a)\n\n[r]: /a\n';
    const out = rewriteLinks(md, (href) => ({ '/a': '/x y', 'http://h/a': 'http://h/b' })[href]);
    expect(out).toBe('[a](/x%20y "t") [b][r] <http://h/b> `[c](/a)`\n\n    [d](/a)\n\n[r]: /x%20y\n');
  });
});

describe('splitSections', () => {
  it('splits at headings with unique slug ids and plain-text bodies', () => {
    const md = [
      'Intro with a [link](x).',
      '',
      '# Install',
      'Run `npm i` **now**.',
      '',
      '## Install',
      '- step one',
      '- step two',
      '',
      '```sh',
      'docsctl login',
      '```',
      '',
      '| A | B |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '# Straße',
      '',
      '# Empty',
    ].join('\n');
    expect(splitSections(md)).toEqual([
      { id: 'intro', title: '', body: 'Intro with a link.' },
      { id: 'install', title: 'Install', body: 'Run npm i now.' },
      { id: 'install-2', title: 'Install', body: 'step one\nstep two\n\ndocsctl login\n\n1\n2' },
      { id: 'strasse', title: 'Straße', body: '' },
      { id: 'empty', title: 'Empty', body: '' },
    ]);
    expect(splitSections('')).toEqual([]);
  });
});
