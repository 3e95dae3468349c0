/** The table printed at the end of every run: one row per phase, then the totals. Pure. */
import type { RunState } from '../state/index.js';

function duration(ms: number | undefined): string {
  if (ms === undefined) return '-';
  const s = Math.round(ms / 1000);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m` : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

export function renderRunSummary(state: RunState): string {
  const header = ['phase', 'status', 'attempts', 'restarts', 'peak ctx', 'duration', 'tokens', 'cost', 'commits'];
  const rows = state.phaseOrder.map((id) => {
    const p = state.phases[id];
    if (!p) return [id, '?', '', '', '', '', '', '', ''];
    return [
      id, p.status, String(p.attempts), String(p.restarts), p.peakContextPercent > 0 ? `${p.peakContextPercent.toFixed(0)}%` : '-',
      duration(p.durationMs), (p.inputTokens + p.outputTokens).toLocaleString('en-US'), `$${p.costUsd.toFixed(2)}`, String(p.commits.length),
    ];
  });
  const phases = Object.values(state.phases);
  const total = [
    'total', state.status, String(phases.reduce((n, p) => n + p.attempts, 0)), String(phases.reduce((n, p) => n + p.restarts, 0)), '',
    duration(state.endedAt ? Date.parse(state.endedAt) - Date.parse(state.startedAt) : undefined),
    phases.reduce((n, p) => n + p.inputTokens + p.outputTokens, 0).toLocaleString('en-US'),
    `$${phases.reduce((n, p) => n + p.costUsd, 0).toFixed(2)}`, String(phases.reduce((n, p) => n + p.commits.length, 0)),
  ];
  const all = [header, ...rows, total];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt), widths.map((w) => '-'.repeat(w)).join('  '), fmt(total)].join('\n');
}
