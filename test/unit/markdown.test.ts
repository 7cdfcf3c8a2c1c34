import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  documentToMarkdown,
  extractLinks,
  markdownToDocument,
  markdownToPlainText,
  slugify,
  splitSections,
  type BlockNode,
  type DocumentNode,
  type InlineNode,
  type TextNode,
} from '../../src/server/lib/markdown.js';

/** Compact view of a document: blocks as { type, data?, children }, text as [text, marks] pairs. */
function shape(nodes: (BlockNode | TextNode | InlineNode)[]): unknown[] {
  return nodes.map((node) => {
    if (node.object === 'text') return node.leaves.map((l) => [l.text, l.marks.map((m) => m.type).join('+')]);
    if (node.object === 'inline') return { link: node.data.ref.url, text: shape(node.nodes) };
    const data = Object.keys(node.data).length > 0 ? { data: node.data } : {};
    return { type: node.type, ...data, children: shape(node.nodes) };
  });
}

const roundTrip = (md: string): DocumentNode => markdownToDocument(documentToMarkdown(markdownToDocument(md)));

describe('slugify', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['Crème brûlée à la carte', 'creme-brulee-a-la-carte'],
    ['  --Foo__Bar--  ', 'foo-bar'],
    ['Straße & Smørrebrød', 'strasse-smorrebrod'],
    ['Ünïcödé 123', 'unicode-123'],
    ['API v2.0 (beta)!', 'api-v2-0-beta'],
    ['', 'page'],
    ['!!!', 'page'],
    ['日本語', 'page'],
  ])('%j -> %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('caps the length at 100 characters without a trailing dash', () => {
    const slug = slugify('word '.repeat(60));
    expect(slug.length).toBeLessThanOrEqual(100);
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe('markdownToDocument', () => {
  it('builds a document of blocks with deterministic sequential keys', () => {
    const doc = markdownToDocument('# Title\n\nHello **world**.\n');
    expect(doc).toEqual({
      object: 'document',
      data: { schemaVersion: 1 },
      nodes: [
        {
          object: 'block',
          type: 'heading-1',
          key: '1',
          data: {},
          nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Title', marks: [] }] }],
        },
        {
          object: 'block',
          type: 'paragraph',
          key: '2',
          data: {},
          nodes: [
            {
              object: 'text',
              leaves: [
                { object: 'leaf', text: 'Hello ', marks: [] },
                { object: 'leaf', text: 'world', marks: [{ object: 'mark', type: 'bold' }] },
                { object: 'leaf', text: '.', marks: [] },
              ],
            },
          ],
        },
      ],
    });
    expect(markdownToDocument('# Title\n\nHello **world**.\n')).toEqual(doc);
  });

  it('numbers keys in base 36 over nested blocks, all distinct', () => {
    const md = Array.from({ length: 20 }, (_, i) => `- item ${i}`).join('\n');
    const keys: string[] = [];
    const collect = (nodes: DocumentNode['nodes']) => {
      for (const b of nodes) {
        keys.push(b.key);
        collect(b.nodes.filter((n): n is BlockNode => n.object === 'block'));
      }
    };
    collect(markdownToDocument(md).nodes);
    expect(keys.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(keys).toContain('a');
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('maps headings, deeper levels to heading-3, and drops closing hashes', () => {
    const doc = markdownToDocument('# One\n## Two\n### Three\n#### Four ##\n###### Six');
    expect(shape(doc.nodes)).toEqual([
      { type: 'heading-1', children: [[['One', '']]] },
      { type: 'heading-2', children: [[['Two', '']]] },
      { type: 'heading-3', children: [[['Three', '']]] },
      { type: 'heading-3', children: [[['Four', '']]] },
      { type: 'heading-3', children: [[['Six', '']]] },
    ]);
  });

  it('reads marks, nested emphasis, code spans and escapes', () => {
    const doc = markdownToDocument('a *it* __b *bi*__ `x*y` \\*lit\\* snake_case_name');
    expect(shape(doc.nodes)).toEqual([
      {
        type: 'paragraph',
        children: [
          [
            ['a ', ''],
            ['it', 'italic'],
            [' ', ''],
            ['b ', 'bold'],
            ['bi', 'bold+italic'],
            [' ', ''],
            ['x*y', 'code'],
            [' *lit* snake_case_name', ''],
          ],
        ],
      },
    ]);
  });

  it('makes links and autolinks inline nodes, and joins paragraph lines with spaces', () => {
    const doc = markdownToDocument('See [the **docs**](https://x.io/a_(b) "Title")\nand <https://y.io>.');
    expect(shape(doc.nodes)).toEqual([
      {
        type: 'paragraph',
        children: [
          [['See ', '']],
          { link: 'https://x.io/a_(b)', text: [[['the ', ''], ['docs', 'bold']]] },
          [[' and ', '']],
          { link: 'https://y.io', text: [[['https://y.io', '']]] },
          [['.', '']],
        ],
      },
    ]);
    const link = doc.nodes[0].nodes[1] as InlineNode;
    expect(link).toMatchObject({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://x.io/a_(b)' } } });
  });

  it('makes a paragraph holding only an image an images block, other images links', () => {
    const doc = markdownToDocument('![A *cat*](cat.png)\n\nInline ![dog](dog.png) here.');
    expect(doc.nodes[0]).toEqual({
      object: 'block',
      type: 'images',
      key: '1',
      isVoid: true,
      data: { src: 'cat.png', alt: 'A cat' },
      nodes: [],
    });
    expect(shape(doc.nodes.slice(1))).toEqual([
      { type: 'paragraph', children: [[['Inline ', '']], { link: 'dog.png', text: [[['dog', '']]] }, [[' here.', '']]] },
    ]);
  });

  it('reads fenced code into code-line blocks with the fence language', () => {
    const doc = markdownToDocument('```ts title="x"\nconst a = 1;\n\n  return a; // **not bold**\n```\n\n~~~\nplain\n~~~');
    expect(shape(doc.nodes)).toEqual([
      {
        type: 'code',
        data: { syntax: 'ts' },
        children: [
          { type: 'code-line', children: [[['const a = 1;', '']]] },
          { type: 'code-line', children: [[['', '']]] },
          { type: 'code-line', children: [[['  return a; // **not bold**', '']]] },
        ],
      },
      { type: 'code', children: [{ type: 'code-line', children: [[['plain', '']]] }] },
    ]);
  });

  it('reads nested lists, ordered lists, blockquotes and dividers', () => {
    const md = [
      '- one',
      '- two',
      '  wrapped',
      '  - nested',
      '',
      '1. first',
      '2. second',
      '',
      '> quoted',
      'lazily continued',
      '>',
      '> - in quote',
      '',
      '---',
    ].join('\n');
    const para = (text: string) => ({ type: 'paragraph', children: [[[text, '']]] });
    expect(shape(markdownToDocument(md).nodes)).toEqual([
      {
        type: 'list-unordered',
        children: [
          { type: 'list-item', children: [para('one')] },
          {
            type: 'list-item',
            children: [para('two wrapped'), { type: 'list-unordered', children: [{ type: 'list-item', children: [para('nested')] }] }],
          },
        ],
      },
      {
        type: 'list-ordered',
        children: [
          { type: 'list-item', children: [para('first')] },
          { type: 'list-item', children: [para('second')] },
        ],
      },
      {
        type: 'blockquote',
        children: [
          para('quoted lazily continued'),
          { type: 'list-unordered', children: [{ type: 'list-item', children: [para('in quote')] }] },
        ],
      },
      { type: 'divider', children: [] },
    ]);
    expect(markdownToDocument('***').nodes[0]).toMatchObject({ type: 'divider', isVoid: true });
  });

  it('starts a new list when the bullet changes, and keeps "2024." inside a paragraph', () => {
    expect(shape(markdownToDocument('- a\n+ b').nodes).map((b) => (b as { type: string }).type)).toEqual([
      'list-unordered',
      'list-unordered',
    ]);
    expect(shape(markdownToDocument('Released in\n2024. Then more').nodes)).toEqual([
      { type: 'paragraph', children: [[['Released in 2024. Then more', '']]] },
    ]);
  });
});

describe('documentToMarkdown', () => {
  it('writes the supported subset back as Markdown', () => {
    const md = [
      '# Guide',
      '',
      'Text with **bold**, _italic_, `code` and a [link](https://x.io).',
      '',
      '- a',
      '- b',
      '',
      '1. one',
      '2. two',
      '',
      '```sh',
      'npm install',
      '```',
      '',
      '> quote',
      '',
      '![Logo](logo.png)',
      '',
      '***',
      '',
    ].join('\n');
    expect(documentToMarkdown(markdownToDocument(md))).toBe(md);
  });

  it('escapes text that would otherwise read as markup', () => {
    const md = documentToMarkdown(markdownToDocument('\\# not a heading \\*not em\\* \\[x\\](y) 1\\. no list'));
    expect(md).toBe('\\# not a heading \\*not em\\* \\[x\\](y) 1. no list\n');
    expect(documentToMarkdown(markdownToDocument('2024\\. A year'))).toBe('2024\\. A year\n');
  });

  const examples = [
    '# Title\n\nPlain paragraph.',
    'Mixed **bold _and italic_ text** and *intra*word and snake_case and 2*3*4.',
    '**Note:** see `npm i` (or `` a`b ``) and [**bold link**](<https://x.io/a b>) or <mailto:x@y.io>!',
    'Wow![link](u) and ![img](i.png "t") inline, \\<tag> and \\\\ backslash.',
    '- a\n- b\n  - c\n    1. d\n\n+ other list\n\n1. x\n1) y',
    '> quote with **bold**\n>\n> ```js\n> code\n> ```\n\n- > quoted item\n- ```\n  code in item\n  ```',
    '````md\n```js\nnested fence\n```\n````\n\n```\n\n   \n```',
    '#### deep ###\n\n## C#\n\n# Ends with \\#\n\n- - x\n- - -',
    '***bold italic*** ***a** b* *a **b***',
    '![](empty-alt.png)\n\n[](empty-text)\n\n---\n\n- \n-\n  text after empty',
  ];
  it.each(examples)('round-trips %j', (md) => {
    expect(roundTrip(md)).toEqual(markdownToDocument(md));
  });

  it('round-trips generated simple Markdown (property)', () => {
    const word = fc.constantFrom('alpha', 'beta', 'x', '42', 'café', 'snake_case', 'a*b', '(paren)', 'end.', 'C#', '1.', 'wow!');
    const phrase = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
    const escaped = (s: string) => s.replace(/[*_#\\[\]!`]/g, '\\$&');
    const inline: fc.Arbitrary<string> = fc.letrec<{ inline: string }>((tie) => ({
      inline: fc.oneof(
        { depthSize: 'small' },
        phrase.map(escaped),
        phrase.map(escaped),
        fc.tuple(fc.constantFrom('*', '_', '**', '__'), tie('inline')).map(([d, s]) => `${d}${s}${d}`),
        phrase.map((s) => '`' + s + '`'),
        fc.tuple(phrase, fc.constantFrom('https://x.io', '/page', 'a b', '')).map(([t, u]) => `[${escaped(t)}](<${u}>)`),
        fc.array(tie('inline'), { minLength: 2, maxLength: 3 }).map((parts) => parts.join(' ')),
      ),
    })).inline;
    const block: fc.Arbitrary<string> = fc.letrec<{ block: string }>((tie) => ({
      block: fc.oneof(
        { depthSize: 'small' },
        inline,
        fc.tuple(fc.integer({ min: 1, max: 6 }), inline).map(([n, s]) => `${'#'.repeat(n)} ${s}`),
        fc
          .tuple(fc.constantFrom('- ', '* ', '1. '), fc.array(tie('block'), { minLength: 1, maxLength: 3 }))
          .map(([m, items]) => items.map((it) => m + it.split('\n').join('\n' + ' '.repeat(m.length))).join('\n')),
        tie('block').map((s) => s.split('\n').map((l) => `> ${l}`).join('\n')),
        fc.tuple(fc.constantFrom('', 'ts', 'sh'), fc.array(phrase, { maxLength: 3 })).map(([lang, lines]) => ['```' + lang, ...lines, '```'].join('\n')),
        fc.constantFrom('---', '![alt](pic.png)'),
      ),
    })).block;
    const markdown = fc.array(block, { minLength: 1, maxLength: 5 }).map((blocks) => blocks.join('\n\n'));
    fc.assert(
      fc.property(markdown, (md) => {
        expect(roundTrip(md)).toEqual(markdownToDocument(md));
      }),
      { numRuns: 500 },
    );
  });
});

describe('extractLinks', () => {
  it('finds links, images and autolinks with their offsets', () => {
    const md = 'See [the *docs*](https://x.io/docs) and ![Logo](img/logo.png).\nMore at <https://y.io/z>.';
    expect(extractLinks(md)).toEqual([
      { href: 'https://x.io/docs', text: 'the docs', offset: 4 },
      { href: 'img/logo.png', text: 'Logo', offset: 40, image: true },
      { href: 'https://y.io/z', text: 'https://y.io/z', offset: md.indexOf('<') },
    ]);
    expect(md.slice(40, 42)).toBe('![');
  });

  it('ignores fenced code blocks, inline code and escaped brackets', () => {
    const md = [
      'Real [one](a.md).',
      '```md',
      '[not](b.md)',
      '```',
      '- item',
      '  ~~~',
      '  [not either](c.md)',
      '  ~~~',
      'Inline `[no](d.md)` and ``[no](e.md)`` and \\[no](f.md) and [two](g.md "title").',
    ].join('\n');
    expect(extractLinks(md).map((l) => l.href)).toEqual(['a.md', 'g.md']);
  });

  it('finds an image inside a link text, and skips brackets that are not links', () => {
    const md = '[![badge](badge.svg)](https://ci) [not a link] (x) [ok](<with space.md>)';
    expect(extractLinks(md)).toEqual([
      { href: 'https://ci', text: 'badge', offset: 0 },
      { href: 'badge.svg', text: 'badge', offset: 1, image: true },
      { href: 'with space.md', text: 'ok', offset: md.indexOf('[ok]') },
    ]);
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
      '# Intro',
      '',
      '# Empty',
    ].join('\n');
    expect(splitSections(md)).toEqual([
      { id: 'intro', title: '', body: 'Intro with a link.' },
      { id: 'install', title: 'Install', body: 'Run npm i now.' },
      { id: 'install-2', title: 'Install', body: 'step one\nstep two\n\ndocsctl login' },
      { id: 'intro-2', title: 'Intro', body: '' },
      { id: 'empty', title: 'Empty', body: '' },
    ]);
  });

  it('has no intro section when the page starts with a heading, and none at all for empty pages', () => {
    expect(splitSections('# A\ntext').map((s) => s.id)).toEqual(['a']);
    expect(splitSections('')).toEqual([]);
  });
});

describe('markdownToPlainText', () => {
  it('strips markup and keeps block structure as line breaks', () => {
    const md = '# Title\n\nSome **bold** [link](x) text.\n\n- a\n- b\n\n> quote\n\n![Alt](i.png)\n\n---\n\n```\ncode line\n```';
    expect(markdownToPlainText(md)).toBe('Title\n\nSome bold link text.\n\na\nb\n\nquote\n\nAlt\n\ncode line');
  });
});
