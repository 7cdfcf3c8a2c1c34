/** The string width cli-table3 measures cells with (ANSI codes and wide characters counted right). */
declare module 'cli-table3/src/utils.js' {
  export function strlen(text: string): number;
}
