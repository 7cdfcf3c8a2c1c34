/**
 * The escaping of text from the service (src/cli/escape.ts), property-tested: whatever the text, what
 * each format prints holds no control character but those the format allows, printable text comes
 * out as it went in, and JSON keeps its value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caret, escapeDeep, jsonSafe, terminalLine, terminalText, tsvField } from '../../src/cli/escape.js';

/** Every C0 control, DEL and every C1 control. */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, i) => i), ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i)].map((c) => String.fromCharCode(c));
const isControl = (c: string) => CONTROLS.includes(c);

/** Text rich in controls, escape sequences and line ends, among any other characters. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(...CONTROLS),
      fc.constantFrom('\x1b[31m', '\x1b]8;;http://x\x07', '\x1b]0;title\x1b\\', '\x9b2J', '\r\n', '^[', '^G'),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
    ),
  )
  .map((parts) => parts.join(''));
/** Text without any control character. */
const printable = fc.string({ unit: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((c) => ![...c].some(isControl)) });

const controlsIn = (text: string) => [...text].filter(isControl);

describe('escaping text from the service', () => {
  it('caret notation: ESC ^[, BEL ^G, NUL ^@, DEL ^?, CSI (U+009B) ^[, as gh shows them', () => {
    expect(['\x1b', '\x07', '\x00', '\x7f', '\x9b', '\x80', '\x9f'].map(caret)).toEqual(['^[', '^G', '^@', '^?', '^[', '^@', '^_']);
  });

  it('a TSV field holds no control at all: no tab, no line break, one record per line', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(controlsIn(tsvField(text))).toEqual([]);
      }),
    );
  });

  it('a terminal line (a cell, a key/value line, a prompt) holds no control', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(controlsIn(terminalLine(text))).toEqual([]);
      }),
    );
  });

  it('terminal text (a message, a page) keeps line feeds and tabs, CR only before LF, no other control', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const out = terminalText(text);
        expect(controlsIn(out).filter((c) => c !== '\n' && c !== '\t' && c !== '\r')).toEqual([]);
        expect(out).not.toMatch(/\r(?!\n)/);
        // Line feeds and tabs are where they were: the same count.
        expect(out.split('\n').length).toBe(text.split('\n').length);
        expect(out.split('\t').length).toBe(text.split('\t').length);
      }),
    );
  });

  it('printable text comes out as it went in', () => {
    fc.assert(
      fc.property(printable, (text) => {
        expect(terminalText(text)).toBe(text);
        expect(tsvField(text)).toBe(text);
        expect(terminalLine(text)).toBe(text);
      }),
    );
  });

  it('each control becomes its caret form, the rest stays in order', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const expected = [...text].map((c) => (c === '\t' || c === '\n' || c === '\r' ? ' ' : isControl(c) ? caret(c) : c)).join('');
        expect(tsvField(text)).toBe(expected);
      }),
    );
  });

  it('JSON: no control left in the text, the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), hostile, (value, text) => {
        const doc = { value, text, [text]: 1 };
        const json = jsonSafe(JSON.stringify(doc, null, 2));
        expect(controlsIn(json).filter((c) => c !== '\n')).toEqual([]);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(doc)));
      }),
    );
  });

  it('escapeDeep: every string of a value, keys too, as terminal text; other values as they were', () => {
    fc.assert(
      fc.property(fc.jsonValue(), hostile, (value, text) => {
        const out = escapeDeep({ value, [text]: [text, 1, null, true] });
        const strings: string[] = [];
        JSON.stringify(out, (k, v) => {
          strings.push(k);
          if (typeof v === 'string') strings.push(v);
          return v;
        });
        for (const s of strings) expect(controlsIn(s).filter((c) => c !== '\n' && c !== '\t' && c !== '\r')).toEqual([]);
        expect(out[terminalText(text)]).toEqual([terminalText(text), 1, null, true]);
      }),
    );
  });
});
