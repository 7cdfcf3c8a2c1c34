/**
 * The pure modules of `content export` (src/contentfiles): a document of every block, inline and
 * mark type of the official JSONDocument written as GitBook's Markdown (the expected text written by
 * hand), what the Markdown cannot carry named, the layout's paths, SUMMARY.md and link rewriting.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { extraFiles } from '../../src/contentfiles/disk.js';
import { linkTargets, pageFileText, planLayout, type TreePage } from '../../src/contentfiles/layout.js';
import { documentToMarkdown } from '../../src/contentfiles/markdown.js';
import { official, validatorAt, describeErrors } from '../helpers/official.js';

type Node = Record<string, unknown>;
const mark = (type: string, data?: Node) => ({ object: 'mark', type, ...(data ? { data } : {}) });
const t = (text: string, ...marks: (string | Node)[]): Node => ({
  object: 'text',
  leaves: [{ object: 'leaf', text, marks: marks.map((m) => (typeof m === 'string' ? mark(m) : m)) }],
});
const block = (type: string, data: Node, nodes: Node[], extra: Node = {}): Node => ({ object: 'block', type, data, nodes, isVoid: false, ...extra });
const voidBlock = (type: string, data: Node, extra: Node = {}): Node => ({ object: 'block', type, data, isVoid: true, ...extra });
const p = (...nodes: Node[]) => block('paragraph', {}, nodes);
const inline = (type: string, data: Node, nodes: Node[] = [], extra: Node = {}): Node => ({
  object: 'inline',
  type,
  data,
  ...(nodes.length ? { nodes } : {}),
  ...extra,
});
const link = (ref: Node, text: string) => inline('link', { ref }, [t(text)]);
const code = (syntax: string, lines: string[], data: Node = {}) =>
  block(
    'code',
    { syntax, ...data },
    lines.map((l) => block('code-line', {}, [t(l)])),
  );
const item = (...nodes: Node[]) => block('list-item', {}, nodes);

const TREE: TreePage[] = [
  { id: 'p1', title: 'Home', type: 'document', path: 'home' },
  { id: 'p2', title: 'Guide', type: 'document', path: 'guide', pages: [{ id: 'p3', title: 'Install', type: 'document', path: 'guide/install' }] },
  {
    id: 'g1',
    title: 'Reference',
    type: 'group',
    path: 'reference',
    pages: [
      { id: 'p4', title: 'API [v2]', type: 'document', path: 'reference/api' },
      { id: 'l1', title: 'Status', type: 'link', target: { kind: 'url', url: 'https://status.example.com' } },
      { id: 'l2', title: 'Back home', type: 'link', target: { kind: 'page', page: 'p1' } },
    ],
  },
];
const FILES = [
  { id: 'f1', name: 'a.png' },
  { id: 'f2', name: 'spec.yaml' },
  { id: 'f3', name: 'A.png' },
];

/** Every block type carried whole, with inline nodes and marks. */
const CARRIED = {
  object: 'document',
  data: { schemaVersion: 1 },
  nodes: [
    block('heading-1', {}, [t('Overview')]),
    p(
      t('Press '),
      t('Ctrl', 'keyboard'),
      t(', see '),
      link({ kind: 'page', page: 'p1' }, 'home'),
      t(', '),
      link({ kind: 'anchor', page: 'p2', anchor: 'setup' }, 'setup'),
      t(', '),
      link({ kind: 'file', file: 'f1' }, 'image'),
      t(', H'),
      t('2', 'subscript'),
      t('O, x'),
      t('2', 'superscript'),
      t(', '),
      t('red', mark('color', { text: 'red', background: 'default' })),
      t(' '),
      inline('emoji', { code: '1f600' }, [], { isVoid: true }),
      t(' '),
      inline('inline-math', { formula: 'a+b' }, [], { isVoid: true }),
      t(' '),
      inline('button', { label: 'Go', kind: 'primary', ref: { kind: 'url', url: 'https://example.com' } }, [], { isVoid: true }),
      t(' '),
      t('strong ', 'bold'),
      t('both', 'bold', 'italic'),
      t(' '),
      t('gone', 'strikethrough'),
      t(' '),
      t('x()', 'code'),
      t(' '),
      inline('inline-image', { ref: { kind: 'file', file: 'f3' }, alt: 'icon' }, [], { isVoid: true }),
      t('.'),
    ),
    block('heading-2', {}, [t('Steps')]),
    block('heading-3', { id: 'custom' }, [t('Deep')]),
    block('list-tasks', {}, [block('list-item', { checked: true }, [p(t('done'))]), block('list-item', { checked: false }, [p(t('todo'))])]),
    block('list-ordered', { start: 3 }, [item(p(t('c'))), item(p(t('d')), block('list-unordered', {}, [item(p(t('nested')))]))]),
    block('blockquote', {}, [p(t('Quoted'))]),
    voidBlock('divider', {}),
    code('js', ['let a = 1;', 'a++;'], { title: 'app.js', lineNumbers: true }),
    code('', ['plain']),
    block('hint', { style: 'warning' }, [p(t('Careful.'))]),
    block('tabs', {}, [block('tabs-item', { title: 'npm' }, [code('sh', ['npm i x'])]), block('tabs-item', { title: 'yarn "classic"' }, [p(t('yarn add x'))])]),
    voidBlock(
      'expandable',
      {},
      {
        fragments: [
          { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', nodes: [p(t('More'))] },
          { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', nodes: [p(t('Hidden text.'))] },
        ],
      },
    ),
    voidBlock('embed', { url: 'https://www.youtube.com/watch?v=1' }),
    voidBlock('file', { ref: { kind: 'file', file: 'f2' } }),
    voidBlock('content-ref', { ref: { kind: 'page', page: 'p1' } }),
    block(
      'images',
      {},
      [
        voidBlock(
          'image',
          { ref: { kind: 'file', file: 'f1' }, alt: 'Alt' },
          { fragments: [{ object: 'fragment', fragment: 'caption', nodes: [p(t('A caption'))] }] },
        ),
      ],
      { isVoid: false },
    ),
    block(
      'images',
      {},
      [
        voidBlock('image', { ref: { kind: 'url', url: 'https://x.test/y.png' } }, { fragments: [] }),
        voidBlock('image', { ref: { kind: 'file', file: 'f1' }, alt: 'A' }, { fragments: [] }),
      ],
      { isVoid: false },
    ),
    voidBlock(
      'table',
      {
        view: { type: 'grid', columns: ['c1', 'c2'], hideHeader: false },
        records: { r2: { orderIndex: 'a1', values: { c1: 'f21', c2: 'f22' } }, r1: { orderIndex: 'a0', values: { c1: 'f11', c2: 'f12' } } },
        definition: {
          c1: { id: 'c1', type: 'text', title: 'Key', textAlignment: 'left' },
          c2: { id: 'c2', type: 'text', title: 'Value', textAlignment: 'right' },
        },
      },
      {
        fragments: [
          { object: 'fragment', fragment: 'f11', type: 'table-cell', nodes: [p(t('a'))] },
          { object: 'fragment', fragment: 'f12', type: 'table-cell', nodes: [p(t('1', 'bold'))] },
          { object: 'fragment', fragment: 'f21', type: 'table-cell', nodes: [p(t('b | c'))] },
          { object: 'fragment', fragment: 'f22', type: 'table-cell', nodes: [p(t('2'))] },
        ],
      },
    ),
    voidBlock('math', { formula: 'E = mc^2' }),
    block('stepper', {}, [block('stepper-step', {}, [p(t('First'))]), block('stepper-step', {}, [p(t('Second'))])]),
    block('columns', {}, [block('column', { width: { value: 50, unit: '%' } }, [p(t('Left'))]), block('column', {}, [p(t('Right'))])]),
    block('updates', { format: 'full' }, [block('update', { date: '2024-01-02T00:00:00.000Z' }, [p(t('Shipped.'))])]),
    voidBlock('swagger', { ref: { kind: 'url', url: 'https://x.test/openapi.yaml' }, path: '/pets', method: 'get' }),
    voidBlock('openapi-operation', { ref: { kind: 'openapi', spec: 'petstore' }, path: '/pets', method: 'post' }),
    voidBlock('openapi-schemas', { ref: { kind: 'openapi', spec: 'petstore' }, schemas: ['Pet', 'Owner'] }),
    voidBlock('openapi-webhook', { ref: { kind: 'openapi', spec: 'petstore' }, name: 'newPet', method: 'post' }),
  ],
};

/** Written by hand from docs/content-export.md (GitBook's syntax), not from the code. */
const CARRIED_MARKDOWN = `## Overview

Press <kbd>Ctrl</kbd>, see [home](../README.md), [setup](README.md#setup), [image](../.gitbook/assets/a.png), H<sub>2</sub>O, x<sup>2</sup>, <mark style="color:red;background-color:default;">red</mark> 😀 $$a+b$$ <a href="https://example.com" class="button primary">Go</a> **strong _both_** ~~gone~~ \`x()\` ![icon](<../.gitbook/assets/A (1).png>).

### Steps

#### Deep <a href="#custom" id="custom"></a>

- [x] done
- [ ] todo

3. c
4. d
   - nested

> Quoted

---

{% code title="app.js" lineNumbers="true" %}
\`\`\`js
let a = 1;
a++;
\`\`\`
{% endcode %}

\`\`\`
plain
\`\`\`

{% hint style="warning" %}
Careful.
{% endhint %}

{% tabs %}
{% tab title="npm" %}
\`\`\`sh
npm i x
\`\`\`
{% endtab %}

{% tab title="yarn &quot;classic&quot;" %}
yarn add x
{% endtab %}
{% endtabs %}

<details>

<summary>More</summary>

Hidden text.

</details>

{% embed url="https://www.youtube.com/watch?v=1" %}

{% file src="../.gitbook/assets/spec.yaml" %}
{% endfile %}

{% content-ref url="../README.md" %}
[../README.md](../README.md)
{% endcontent-ref %}

<figure><img src="../.gitbook/assets/a.png" alt="Alt"><figcaption><p>A caption</p></figcaption></figure>

![](https://x.test/y.png) ![A](../.gitbook/assets/a.png)

| Key | Value |
| - | -: |
| a | **1** |
| b \\| c | 2 |

$$
E = mc^2
$$

{% stepper %}
{% step %}
First
{% endstep %}

{% step %}
Second
{% endstep %}
{% endstepper %}

{% columns %}
{% column width="50%" %}
Left
{% endcolumn %}

{% column %}
Right
{% endcolumn %}
{% endcolumns %}

{% updates format="full" %}
{% update date="2024-01-02T00:00:00.000Z" %}
Shipped.
{% endupdate %}
{% endupdates %}

{% openapi src="https://x.test/openapi.yaml" path="/pets" method="get" %}
[https://x.test/openapi.yaml](https://x.test/openapi.yaml)
{% endopenapi %}

{% openapi-operation spec="petstore" path="/pets" method="post" %}
{% endopenapi-operation %}

{% openapi-schemas spec="petstore" schemas="Pet,Owner" %}
{% endopenapi-schemas %}

{% openapi-webhook spec="petstore" name="newPet" method="post" %}
{% endopenapi-webhook %}
`;

/** What the Markdown cannot carry: each named. */
const LOSSY = {
  object: 'document',
  data: {},
  nodes: [
    voidBlock('integration', { integration: 'mermaid', block: 'diagram', props: {} }),
    block('prompt', { description: 'Ask' }, [code('text', ['Summarise this'])]),
    block('if', { expression: 'visitor.claims.pro' }, [p(t('Pro only'))]),
    voidBlock('reusable-content', { ref: { kind: 'reusable-content', reusableContent: 'rc1' } }),
    voidBlock('drawing', { ref: { kind: 'file', file: 'f1' } }),
    p(
      inline('annotation', {}, [t('term')], {
        isVoid: false,
        fragments: [{ object: 'fragment', fragment: 'a', type: 'annotation-body', nodes: [p(t('note'))] }],
      }),
      t(' '),
      inline('expression', { expression: 'space.vars.x' }, [], { isVoid: true }),
      inline('icon', { icon: 'gear' }, [], { isVoid: true }),
      inline('mention', { ref: { kind: 'user', user: 'u1' } }, [], { isVoid: true }),
      link({ kind: 'page', page: 'p9', space: 'other' }, 'elsewhere'),
    ),
    block('hint', { style: 'info', icon: 'star' }, [p(t('Hinted'))]),
    block('code', {}, [block('code-line', { highlighted: true }, [t('x')])]),
  ],
};

describe('documentToMarkdown', () => {
  it('the test documents are official JSONDocuments, and cover every block, inline and mark type of the official document', () => {
    const validate = validatorAt('#/components/schemas/JSONDocument');
    // The official DocumentInlineButton cannot validate (its `data` is `allOf` of {label, kind} and of a
    // `oneOf` branch with `additionalProperties: false`, which refuses label and kind): checked without it.
    const withoutButtons = (doc: unknown) => JSON.parse(JSON.stringify(doc), (_k, v) => (Array.isArray(v) ? v.filter((n) => n?.type !== 'button') : v));
    for (const doc of [CARRIED, LOSSY]) expect(validate(withoutButtons(doc)) ? [] : describeErrors(validate.errors)).toEqual([]);
    const schemas = official.components.schemas as Record<string, { properties?: { type?: { enum?: string[] }; object?: { enum?: string[] } } }>;
    const typesOf = (object: string) =>
      Object.entries(schemas)
        .filter(([name, s]) => name.startsWith('Document') && s.properties?.object?.enum?.[0] === object)
        .flatMap(([, s]) => s.properties?.type?.enum ?? []);
    const used = new Set<string>();
    const walk = (n: unknown) => {
      if (!n || typeof n !== 'object') return;
      const node = n as Record<string, unknown>;
      if (typeof node.type === 'string' && (node.object === 'block' || node.object === 'inline' || node.object === 'mark'))
        used.add(`${node.object}:${node.type}`);
      for (const v of Object.values(node)) if (Array.isArray(v)) v.forEach(walk);
    };
    walk(CARRIED);
    walk(LOSSY);
    const wanted = [...typesOf('block').map((x) => `block:${x}`), ...typesOf('inline').map((x) => `inline:${x}`), ...typesOf('mark').map((x) => `mark:${x}`)];
    expect(wanted.length).toBeGreaterThan(50);
    expect(wanted.filter((w) => !used.has(w))).toEqual([]);
  });

  it('writes every block GitBook has a syntax for in that syntax, links relative to the page’s file, and loses nothing', () => {
    const layout = planLayout(TREE, FILES);
    const out = documentToMarkdown(CARRIED, linkTargets(layout, 'guide/install.md', 'sp1'));
    expect(out.markdown).toBe(CARRIED_MARKDOWN);
    expect(out.losses).toEqual([]);
  });

  it('names what the Markdown cannot carry (the exporter then keeps the document JSON)', () => {
    const layout = planLayout(TREE, FILES);
    const out = documentToMarkdown(LOSSY, linkTargets(layout, 'README.md', 'sp1'));
    expect(out.losses).toEqual([
      'annotation',
      'code-line.highlighted',
      'drawing',
      'hint.icon',
      'if',
      'inline expression',
      'inline icon',
      'integration',
      'link reference out of the export',
      'mention of a user',
      'prompt',
      'reusable-content',
    ]);
    // What it can still say is written: the prompt's code, the condition's content, the drawing as an image, the link's text.
    expect(out.markdown).toContain('```text\nSummarise this\n```');
    expect(out.markdown).toContain('Pro only');
    expect(out.markdown).toContain('![](.gitbook/assets/a.png)');
    expect(out.markdown).toContain('term elsewhere');
  });

  it('keeps a document nested deeper than it writes as JSON only (no stack overflow on a hostile answer)', () => {
    let node: Node = p(t('deep'));
    for (let i = 0; i < 100_000; i++) node = block('blockquote', {}, [node]);
    const out = documentToMarkdown({ nodes: [node] }, linkTargets(planLayout(TREE, FILES), 'README.md'));
    expect(out).toEqual({ markdown: '', losses: ['document nested deeper than 200 levels'] });
    let shallow: Node = p(t('deep'));
    for (let i = 0; i < 50; i++) shallow = block('blockquote', {}, [shallow]);
    expect(documentToMarkdown({ nodes: [shallow] }, linkTargets(planLayout(TREE, FILES), 'README.md')).markdown).toBe(`${'> '.repeat(50)}deep\n`);
  });
});

describe('planLayout', () => {
  it('places the first page at README.md, a page with subpages at path/README.md, assets by name (clashes numbered), and writes SUMMARY.md', () => {
    const layout = planLayout(TREE, FILES);
    expect(layout.pages.map((p) => [p.page.id, p.file])).toEqual([
      ['p1', 'README.md'],
      ['p2', 'guide/README.md'],
      ['p3', 'guide/install.md'],
      ['p4', 'reference/api.md'],
    ]);
    expect([...layout.assets]).toEqual([
      ['f1', '.gitbook/assets/a.png'],
      ['f2', '.gitbook/assets/spec.yaml'],
      ['f3', '.gitbook/assets/A (1).png'],
    ]);
    expect(layout.summary).toBe(
      [
        '# Table of contents',
        '',
        '* [Home](README.md)',
        '* [Guide](guide/README.md)',
        '  * [Install](guide/install.md)',
        '',
        '## Reference',
        '',
        '* [API \\[v2\\]](reference/api.md)',
        '* [Status](https://status.example.com)',
        '* [Back home](README.md)',
        '',
      ].join('\n'),
    );
  });

  it('keeps what a hostile service names inside the folder', () => {
    const layout = planLayout(
      [
        { id: 'a', title: 'A', type: 'document', path: 'a' },
        { id: 'b', title: 'B', type: 'document', path: '../../etc/passwd' },
        { id: 'c', title: 'C', type: 'document', path: 'SUMMARY' },
        { id: 'd', title: 'D', type: 'document', path: '.gitbook/assets/logo.png' },
        { id: 'e', title: 'E', type: 'document', path: '.docsctl-export' },
      ],
      [{ id: 'f', name: '../../x' }],
    );
    for (const p of layout.pages) expect(p.file).not.toMatch(/(^|\/)\.\.(\/|$)/);
    expect(layout.pages[2].file).toBe('SUMMARY-c.md');
    expect(layout.pages.slice(3).map((p) => p.file)).toEqual(['_gitbook/assets/logo.png.md', '_docsctl-export.md']);
    expect(
      planLayout(
        [
          { id: 'e', title: 'E', type: 'document', path: 'a' },
          { id: 'x', title: 'X', type: 'document', path: '.docsctl-export' },
        ],
        [],
        '.json',
      ).pages[1].file,
    ).toBe('_docsctl-export.json');
    expect(layout.assets.get('f')).toBe('.gitbook/assets/..-..-x');
  });

  it('rewrites links the sandbox writes as paths (/a/b, ../b.md, file:ID) to the files of the export', () => {
    const layout = planLayout(TREE, FILES);
    const from = linkTargets(layout, 'guide/install.md');
    expect(from.href({ kind: 'url', url: '/guide' })).toBe('README.md');
    expect(from.href({ kind: 'url', url: '../README.md#top' })).toBe('../README.md#top');
    expect(from.href({ kind: 'url', url: '/reference/api' })).toBe('../reference/api.md');
    expect(from.href({ kind: 'url', url: 'file:f2' })).toBe('../.gitbook/assets/spec.yaml');
    expect(from.href({ kind: 'url', url: '/nowhere' })).toBe('/nowhere');
    expect(from.href({ kind: 'url', url: 'mailto:a@b.c' })).toBe('mailto:a@b.c');
    expect(from.href({ kind: 'anchor', anchor: 'here' })).toBe('#here');
    expect(from.href({ kind: 'page', page: 'p3' })).toBe('install.md');
  });
});

describe('pageFileText', () => {
  it('front matter only when the page has a description, icon, emoji or is hidden; the title as the first heading', () => {
    expect(pageFileText({ id: 'x', title: 'Plain' }, '')).toBe('# Plain\n');
    expect(pageFileText({ id: 'x', title: 'T', icon: 'gear', hidden: true }, 'Body.\n')).toBe('---\nicon: gear\nhidden: true\n---\n\n# T\n\nBody.\n');
  });

  it('front matter values read back by a YAML parser as they were: plain when safe, double-quoted otherwise', () => {
    const values = [
      'Plain words',
      'a: b',
      '#tag',
      'true',
      '123',
      '1e3',
      ' lead',
      'trail ',
      'quote "x"',
      "it's",
      'line\nbreak',
      '- dash',
      'ok-dash',
      '@at',
      'café ☕',
      'null',
      '~',
    ];
    for (const description of values) {
      const text = pageFileText({ id: 'x', title: 'T', description }, '');
      const front = text.slice(4, text.indexOf('\n---\n'));
      expect(parse(front), JSON.stringify(description)).toEqual({ description });
      expect(front.split('\n')).toHaveLength(1);
    }
    expect(pageFileText({ id: 'x', title: 'T', description: 'Plain words' }, '')).toContain('description: Plain words\n');
  });
});

describe('extraFiles', () => {
  it('lists the content files the export did not write: not dot-folders but .gitbook/, not another export’s folder, names compared without case', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docsctl-extra-'));
    try {
      const put = (path: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), 'x');
      };
      const content = ['Readme.md', 'guide/install.md', '.gitbook.yaml', '.gitbook/assets/.hidden.png', '.gitbook/includes/x.md', 'guide/notes.txt'];
      const notContent = [
        '.docsctl-export.json',
        '.git/HEAD',
        '.github/workflows/ci.yml',
        'guide/.DS_Store',
        'other/.docsctl-export.json',
        'other/a.md',
        'a.md.0f0f0f0f.docsctl-part',
      ];
      for (const p of [...content, ...notContent]) put(p);
      expect(await extraFiles(root, ['README.md', 'guide/install.md'])).toEqual([
        '.gitbook.yaml',
        '.gitbook/assets/.hidden.png',
        '.gitbook/includes/x.md',
        'guide/notes.txt',
      ]);
      expect(await extraFiles(join(root, 'missing'), [])).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
