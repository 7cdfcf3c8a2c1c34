/** Medians, quantiles and the result rows every part of the suite reports. */

export function median(values) {
  return quantile(values, 0.5);
}

export function quantile(values, q) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const pos = (v.length - 1) * q;
  const lo = Math.floor(pos);
  return v[lo] + (v[Math.min(lo + 1, v.length - 1)] - v[lo]) * (pos - lo);
}

/**
 * One line of the results table.
 * - `value`/`baseline`: the measured figure and what it is compared with (same unit);
 * - `ratio` = value / baseline; `target` the bound on the ratio, `dir` '<=' or '>='.
 */
export function result({ part, name, value, baseline, unit, target, dir = '<=', command, note }) {
  const ratio = baseline === undefined ? value : value / baseline;
  const met = target === undefined ? undefined : dir === '<=' ? ratio <= target : ratio >= target;
  return { part, name, value, baseline, unit, ratio, target, dir, met, command, note };
}

export function fmt(n, digits = 2) {
  if (n === undefined) return '';
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 100) return n.toFixed(0);
  if (Math.abs(n) >= 10) return n.toFixed(1);
  return n.toFixed(digits);
}

/** The results as a Markdown table (what docs/performance.md records). */
export function markdownTable(results) {
  const lines = ['| Part | Figure | Measured | Baseline | Ratio | Target | Met |', '|---|---|---|---|---|---|---|'];
  for (const r of results) {
    const unit = r.unit ? ` ${r.unit}` : '';
    lines.push(
      `| ${r.part} | ${r.name}${r.note ? ` (${r.note})` : ''} | ${fmt(r.value)}${unit} | ${r.baseline === undefined ? '—' : fmt(r.baseline) + unit} | ${r.baseline === undefined ? '—' : fmt(r.ratio) + ' ×'} | ${r.target === undefined ? '—' : `${r.dir} ${r.target}${r.baseline === undefined ? unit : ' ×'}`} | ${r.met === undefined ? '—' : r.met ? 'yes' : '**no**'} |`,
    );
  }
  return lines.join('\n');
}
