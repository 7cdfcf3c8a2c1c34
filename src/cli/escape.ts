/**
 * Text from the service shown to a person: control characters made visible, so that a title or a
 * message holding ESC, BEL, CSI or OSC sequences cannot drive the terminal (recolour it, retitle the
 * window, write a hyperlink, clear the screen). As gh does: C0 controls (U+0000–U+001F), DEL and C1
 * controls (U+0080–U+009F) in caret notation, `^[` for ESC, `^G` for BEL, `^?` for DEL, and a C1
 * control as the C0 one it stands for (CSI U+009B is `^[`). Printable text, `^` included, is left
 * as it is. Each format keeps the white space it can hold: a cell holds none (one line), a message or
 * a page of text keeps its line breaks and tabs. Data asked for as data (`--json`, `--jq` in a pipe,
 * `--markdown` to a file) is not touched: see docs/security.md, "The terminal and --jq".
 *
 * The data is escaped before docsctl colours it, so that its own colours still work.
 */

/** C0 controls, DEL, C1 controls. */
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;

/** One control character in caret notation: ESC → `^[`, BEL → `^G`, DEL → `^?`, CSI (U+009B) → `^[`. */
export function caret(c: string): string {
  const code = c.charCodeAt(0);
  return code === 0x7f ? '^?' : `^${String.fromCharCode((code & 0x1f) + 0x40)}`;
}

/**
 * Text of several lines (a message, a Markdown page, jq's output on a terminal): line feeds and tabs
 * stay, CR before LF stays (a Windows line end), every other control is in caret notation.
 */
export function terminalText(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c, at: number) => (c === '\r' && text[at + 1] === '\n' ? c : caret(c)));
}

/**
 * One line of a table or a key/value view: runs of white space holding a line break, and tabs,
 * become one space; every other control is in caret notation.
 */
export function terminalLine(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/\t/g, ' ')
    .replace(/[\x00-\x1f\x7f-\x9f]/g, caret);
}

/** A field of a tab-separated row: tab, CR and LF become a space (one record per line), every other control caret notation. */
export function tsvField(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text.replace(/[\t\r\n]/g, ' ').replace(/[\x00-\x1f\x7f-\x9f]/g, caret);
}

/**
 * JSON text with DEL and the C1 controls `\u`-escaped as well (JSON.stringify escapes C0 only): the
 * same JSON value, nothing a terminal acts on. Outside strings JSON holds no such character, so every
 * one replaced is inside a string.
 */
export function jsonSafe(json: string): string {
  return /[\x7f-\x9f]/.test(json) ? json.replace(/[\x7f-\x9f]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) : json;
}

/**
 * A copy of a JSON-like value with every string (keys too) through `terminalText`: what a renderer of
 * the command's own (a tree, threads of comments) gets, so that it can colour its parts as it likes.
 */
export function escapeDeep<T>(value: T): T {
  if (typeof value === 'string') return terminalText(value) as T;
  if (Array.isArray(value)) return value.map(escapeDeep) as T;
  if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [terminalText(k), escapeDeep(v)])) as T;
  }
  return value;
}
