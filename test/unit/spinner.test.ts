/**
 * The spinner's line fits the terminal's width (src/cli/context.ts): a line that wrapped would leave
 * its first rows behind at each redraw, which clears the last row only. Wide characters (CJK,
 * fullwidth, emoji) take two columns. Checked on what the spinner writes to a terminal of 20 columns.
 */
import { describe, expect, it } from 'vitest';
import { Context, type Io } from '../../src/cli/context.js';

/** What a spinner showing `text` draws first on a terminal `columns` wide (without its control sequence). */
function drawn(text: string, columns: number): string {
  const writes: string[] = [];
  const stderr = { isTTY: true, columns, write: (s: string) => (writes.push(s), true) };
  const io = { stdout: { isTTY: false, write: () => true }, stderr, stdin: { isTTY: false }, env: {} } as unknown as Io;
  const spin = new Context({ verbose: false, interactive: false, color: false }, io).spinner(text);
  spin.stop();
  return writes[0]!.replace('\r\x1b[2K', '');
}

/** Columns a terminal gives the text (wide characters two). */
const width = (s: string) => [...s].reduce((n, ch) => n + (/[\u3000-\u9fff\uff00-\uff60\u{1f300}-\u{1faff}]/u.test(ch) ? 2 : 1), 0);

describe('the spinner line', () => {
  it('is as given when it fits', () => {
    expect(drawn('reading', 20)).toBe('⠋ reading');
    expect(width(drawn('x'.repeat(17), 20))).toBe(19);
    expect(drawn('x'.repeat(17), 20)).not.toContain('…');
  });

  it('is cut to one column less than the width, ending with …', () => {
    const line = drawn('exporting a-very-long-space-name', 20);
    expect(line).toBe('⠋ exporting a-very…');
    expect(width(line)).toBe(19);
  });

  it('counts wide characters as two columns', () => {
    for (const text of [
      '読み込み中のスペースの名前はとても長い',
      'importing 漢字漢字漢字漢字漢字',
      'sites 🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀',
      'ＦＵＬＬＷＩＤＴＨ ＴＥＸＴ',
    ]) {
      const line = drawn(text, 20);
      expect(line.endsWith('…'), line).toBe(true);
      expect(width(line), line).toBeLessThanOrEqual(19);
      expect(width(line), line).toBeGreaterThanOrEqual(18);
    }
  });
});
