/**
 * The context window of a model, from its name. `system/init` carries no window, so the name is
 * the earliest source: the CLI marks its 1M-token variants with a `[1m]` suffix (a marker the API
 * request does not carry), and every other Claude model it runs has 200,000 tokens.
 */
const ONE_MILLION = 1_000_000;
const STANDARD_WINDOW = 200_000;

const ONE_MILLION_SUFFIX = /\[1m\]\s*$/i;
// Aliases the CLI accepts (`--model opus`) and full ids (`claude-sonnet-4-5`, `claude-opus-4-8`).
const KNOWN_CLAUDE_MODEL = /^(?:(?:opus|sonnet|haiku)(?:plan)?|claude-[\w.-]+)$/i;

/** `override` wins; then the model name; undefined when neither tells. */
export function contextWindowFor(model: string | undefined, override?: number): number | undefined {
  if (override !== undefined && Number.isFinite(override) && override > 0) return override;
  if (model === undefined) return undefined;
  const name = model.trim();
  if (ONE_MILLION_SUFFIX.test(name)) return ONE_MILLION;
  if (KNOWN_CLAUDE_MODEL.test(name)) return STANDARD_WINDOW;
  return undefined;
}
