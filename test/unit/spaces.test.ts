import { describe, expect, it } from 'vitest';
import { formatTimeLeft } from '../../src/commands/spaces/columns.js';
import { copyTitle } from '../../src/server/spaces/model.js';

describe('copyTitle', () => {
  it('appends " (copy)" and keeps the title within 50 characters, cutting whole characters only', () => {
    expect(copyTitle('Guide')).toBe('Guide (copy)');
    expect(copyTitle('x'.repeat(43))).toBe(`${'x'.repeat(43)} (copy)`);
    expect(copyTitle('x'.repeat(50))).toBe(`${'x'.repeat(43)} (copy)`);
    // 🚀 is two UTF-16 units: it is dropped whole rather than split into a lone surrogate.
    const t = copyTitle(`${'y'.repeat(42)}🚀z`);
    expect(t).toBe(`${'y'.repeat(42)} (copy)`);
    expect(copyTitle(`${'a'.repeat(40)}   ${'b'.repeat(7)}`)).toBe(`${'a'.repeat(40)} (copy)`);
  });
});

describe('formatTimeLeft', () => {
  it('shows days and hours, hours and minutes, or minutes', () => {
    expect(formatTimeLeft(7 * 86_400)).toBe('7d 0h');
    expect(formatTimeLeft(86_399)).toBe('23h 59m');
    expect(formatTimeLeft(3 * 86_400 + 5 * 3_600 + 59)).toBe('3d 5h');
    expect(formatTimeLeft(42 * 60 + 5)).toBe('42m');
    expect(formatTimeLeft(59)).toBe('<1m');
    expect(formatTimeLeft(0)).toBe('<1m');
  });
});
