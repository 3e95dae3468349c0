/**
 * The context window of a model, from its name. `system/init` carries no window, so the name is
 * the earliest source: the CLI marks its 1M-token variants with a `[1m]` suffix (a marker the API
 * request does not carry); the 5.5 generation has a 1M window of its own, under its plain name
 * (claude 2.1.332: `--model opus|sonnet|haiku` run claude-opus-5-5, -sonnet-5-5, -haiku-5-5, and
 * each result states 1,000,000); every other Claude model it runs has 200,000 tokens. A model whose
 * window moved between CLI versions (claude-opus-4-8 and claude-sonnet-5 reported 200,000 with
 * 2.1.197, and are 1M in 2.1.332's catalog) counts as the smaller: a window taken too small stops
 * a session early, never late.
 */
const ONE_MILLION = 1_000_000;
const STANDARD_WINDOW = 200_000;

const ONE_MILLION_SUFFIX = /\[1m\]\s*$/i;
/** Measured at 1,000,000 under their plain names (result.modelUsage.contextWindow, claude 2.1.332). */
const NATIVE_ONE_MILLION = /^claude-(?:opus|sonnet|haiku)-5-5(?:$|[-@])/i;
// Aliases the CLI accepts (`--model opus`) and full ids (`claude-sonnet-4-5`, `claude-opus-4-8`).
const KNOWN_CLAUDE_MODEL = /^(?:(?:opus|sonnet|haiku)(?:plan)?|claude-[\w.-]+)$/i;

/** `override` wins; then the model name; undefined when neither tells. */
export function contextWindowFor(model: string | undefined, override?: number): number | undefined {
  if (override !== undefined && Number.isFinite(override) && override > 0) return override;
  if (model === undefined) return undefined;
  const name = model.trim();
  if (ONE_MILLION_SUFFIX.test(name) || NATIVE_ONE_MILLION.test(name)) return ONE_MILLION;
  if (KNOWN_CLAUDE_MODEL.test(name)) return STANDARD_WINDOW;
  return undefined;
}
