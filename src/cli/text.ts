/** Small wording helpers for messages, shared by the toolkit, the commands and the org files. */

/** `1 change`, `2 changes`, `0 changes`; `many` for an irregular plural (`plural(n, 'entry', 'entries')`). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
