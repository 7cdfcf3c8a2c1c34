/** Small wording helpers for messages, shared by the toolkit, the commands and the org files. */

/** `1 change`, `2 changes`, `0 changes`; `many` for an irregular plural (`plural(n, 'entry', 'entries')`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Characters a terminal shows two columns wide: East Asian wide and fullwidth ones, and emoji. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;

/** The columns a terminal gives `text` (wide characters two, every other character one). */
export function displayWidth(text: string): number {
  let n = 0;
  for (const ch of text) n += WIDE.test(ch) ? 2 : 1;
  return n;
}
