/**
 * The text search indexes is read by the one Markdown dialect (micromark + GFM). Pages that cannot
 * hold an autolink literal or a table are read without those constructs (much faster): the tree
 * must be the very one the whole of GFM gives.
 */
import fc from 'fast-check';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { fromMarkdownOptions } from '../../src/server/lib/markdown.js';

const wholeGfm = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] };
const full = (md: string) => fromMarkdown(md, wholeGfm);
const chosen = (md: string) => fromMarkdown(md, fromMarkdownOptions(md));

describe('reading Markdown without the GFM constructs a page cannot hold', () => {
  it('gives the tree of the whole of GFM on generated Markdown', () => {
    // Characters that start or shape constructs, autolink literals and tables among them.
    const alphabet = [
      'a',
      'w',
      'W',
      'h',
      't',
      'p',
      's',
      '.',
      '@',
      ':',
      '/',
      '|',
      '-',
      ' ',
      '\n',
      '\n\n',
      '>',
      '*',
      '_',
      '~',
      '#',
      '`',
      '[',
      ']',
      '(',
      ')',
      '!',
      '1',
      '&',
      '<',
      '\\',
      '=',
      'é',
      'www.',
      'http:',
      'x@y.co',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }), (parts) => {
        const md = parts.join('');
        expect(chosen(md)).toEqual(full(md));
      }),
      { numRuns: 800 },
    );
  });

  it('keeps autolink literals and tables where the page can hold them', () => {
    const cases: [string, string][] = [
      ['mail me@example.com now', 'link'],
      ['see www.example.com', 'link'],
      ['see WWW.example.com', 'link'],
      ['see HTTPS://example.com', 'link'],
      ['| a | b |\n| - | - |\n| 1 | 2 |', 'table'],
      ['a\n:-', 'table'],
      ['a\n-:', 'table'],
    ];
    for (const [md, type] of cases) {
      const tree = chosen(md);
      expect(tree).toEqual(full(md));
      expect(JSON.stringify(tree)).toContain(`"type":"${type}"`);
    }
  });

  it('reads a page of words and headings without them, the same', () => {
    const md = '# Page one\n\nSome words, and more: a list follows.\n\n- item *one*\n- item `two`\n\n## Details\n\nDone.\n';
    expect(fromMarkdownOptions(md).extensions).not.toEqual(wholeGfm.extensions);
    expect(chosen(md)).toEqual(full(md));
  });
});
