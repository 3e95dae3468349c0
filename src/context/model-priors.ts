/**
 * What debussy assumes about a model's tokenizer before a session has taught it anything: how many
 * of the model's tokens one cl100k token of new context is worth (`factor`), and the fixed tokens
 * each API round trip adds on top of its content (`overheadPerCall`: the tool_result wrappers, the
 * turn framing). debussy counts with cl100k (src/tokenizer); Claude's tokenizer is another one, so
 * these priors turn a cl100k count into a projection of Claude's count. The learner
 * (token-calibration.ts) refines them within a session.
 *
 * Where the figures come from (measured on public Claude Code transcripts: the growth between two
 * consecutive requests of the main chain against the cl100k count of what entered between them,
 * the model's output taken from its final `output_tokens`):
 * - Claude 4.0-4.6 models: 6,381 consecutive request pairs (issue 13): growth = ~1.2 x cl100k + 70-80
 *   tokens per call. Re-measured for this table on the transcripts of marot/spotter and
 *   d-kimuson/claude-code-viewer: claude-opus-4-6 1.16 (p25 1.10, p75 1.27; 679 pairs) + 56 per
 *   call, claude-sonnet-4 1.16 + 61 (23 pairs), claude-haiku-4-5 1.20 + 127 (132 pairs).
 * - Opus 4.7 and later: near 1.6 x cl100k (issue 13; few samples). Later models are assumed to
 *   tokenize like 4.7 until measured: an over-estimate stops a session early, never late, and the
 *   learner corrects it after the first large tool result.
 */
export interface ModelPrior {
  factor: number;
  overheadPerCall: number;
  /** Where the figure comes from, for docs and `debussy replay`. */
  source: string;
}

interface PriorRule extends ModelPrior {
  matches: RegExp;
}

const LATER_THAN_4_6 = /(?:opus|sonnet|haiku)-(?:4-(?:[7-9]|\d{2})|[5-9])(?!\d)|(?:opus|sonnet|haiku)-4\.[7-9]/i;

const RULES: readonly PriorRule[] = [
  { matches: LATER_THAN_4_6, factor: 1.6, overheadPerCall: 75, source: 'Opus 4.7 transcripts: ~1.6 x cl100k (few samples); later models assumed alike' },
  { matches: /haiku-4-5|haiku-4\.5/i, factor: 1.2, overheadPerCall: 120, source: 'public transcripts, claude-haiku-4-5: 1.20 x cl100k + 127 per call (132 pairs)' },
];

export const DEFAULT_PRIOR: ModelPrior = {
  factor: 1.2,
  overheadPerCall: 70,
  source: 'public transcripts, Claude 4.0-4.6: ~1.2 x cl100k + 70-80 per call (6,381 pairs)',
};

/** The prior for an API model name (`claude-opus-4-6`) or a CLI name (`claude-opus-4-8[1m]`, `opus`). */
export function priorFor(model: string | undefined): ModelPrior {
  const name = (model ?? '').trim();
  const rule = RULES.find((r) => r.matches.test(name));
  return rule === undefined ? DEFAULT_PRIOR : { factor: rule.factor, overheadPerCall: rule.overheadPerCall, source: rule.source };
}
