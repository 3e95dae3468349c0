/**
 * `debussy config`: the resolved configuration and where each value came from. A config can hold
 * secrets (a webhook URL with a password or an `?auth=` token, a key in `claude_args`, a token in
 * a gate command): every value is redacted before it is shown, in the listing and in `--json`.
 * A config comes with a cloned repository too: its values are shown inert (text/inert-text.ts).
 */
import { CONFIG_KEYS, CONFIG_SCHEMA, loadProjectConfig, unitText, type DebussyConfig, type ValueKind } from '../../config/index.js';
import { configuredLimits, describeLimit, type ConfiguredLimit } from '../../context/index.js';
import { createRedactor, redactArgs, redactDeep, type Redactor } from '../../redact/index.js';
import { findProjectRoot } from '../../state/index.js';
import { formatCount } from '../../text/format-count.js';
import { inertJson, inertLine, inertText } from '../../text/inert-text.js';

interface ConfigOptions {
  json?: boolean;
  config?: string;
}

/** A value as it may be shown: strings redacted, an argument list with the value after `--api-key` too. */
function shownValue(value: unknown, redact: Redactor): unknown {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return redactArgs(value, redact);
  return redactDeep(value, redact);
}

function display(kind: ValueKind, value: unknown): string {
  if (value === undefined) return '(unset)';
  const withUnit = unitText(kind, value);
  if (withUnit !== undefined) return withUnit;
  return inertLine(typeof value === 'string' ? value : JSON.stringify(value));
}

export default async function configCommand(options: ConfigOptions): Promise<number> {
  const root = await findProjectRoot(process.cwd());
  const resolved = await loadProjectConfig(root, {}, options.config);
  const redact = createRedactor(process.env);
  for (const warning of resolved.warnings) process.stderr.write(`debussy: warning: ${redact(inertText(warning))}\n`);
  if (options.json) {
    const values = Object.fromEntries(
      CONFIG_KEYS.map((key) => [key, { value: shownValue(resolved.config[key], redact) ?? null, source: resolved.sources[key] }]),
    );
    const contextLimits = limitsOf(resolved.config).map((l) => ({ window: l.window, windowSource: l.windowSource, tokens: l.limit === undefined ? null : Math.round(l.limit.tokens), source: l.limit?.source ?? null }));
    process.stdout.write(`${inertJson(JSON.stringify({ file: resolved.file ?? null, values, contextLimits }, null, 2))}\n`);
    return 0;
  }
  process.stdout.write(`config file: ${resolved.file ?? '(none found; using defaults)'}\n`);
  const width = Math.max(...CONFIG_KEYS.map((key) => key.length));
  for (const key of CONFIG_KEYS) {
    const source = resolved.sources[key] === 'file' ? 'file' : 'default';
    process.stdout.write(`  ${key.padEnd(width)}  ${display(CONFIG_SCHEMA[key].kind, shownValue(resolved.config[key], redact)).padEnd(24)}  (${source})\n`);
  }
  process.stdout.write('effective context limit (a session is stopped there, whichever of the two comes first):\n');
  for (const entry of limitsOf(resolved.config)) process.stdout.write(`  ${windowLabel(entry)}: ${describeLimit(entry.limit, entry.window, resolved.config.context_threshold)}\n`);
  return 0;
}

function limitsOf(config: DebussyConfig): ConfiguredLimit[] {
  return configuredLimits({ contextWindow: config.context_window, model: config.model, thresholdPercent: config.context_threshold, maxContextTokens: config.max_context_tokens });
}

function windowLabel(entry: ConfiguredLimit): string {
  const window = `${formatCount(entry.window)}-token window`;
  if (entry.windowSource === 'context_window') return `${window} (context_window)`;
  if (entry.windowSource === 'model') return `${window} (model)`;
  return `with a ${window}`;
}
