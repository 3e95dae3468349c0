/**
 * redactDeep, done once per object and redactor. An agent event is redacted for the session's
 * readable log as it is read, and again for the reporters when the run takes it from the queue;
 * both need the whole text redacted before they cut it, and a tool's output can be megabytes, so
 * the second asks for the first one's result instead of redacting it again (bench figure 1).
 */
import { redactDeep, type Redactor } from './redact-secrets.js';

// Weak on both sides: an entry lives as long as its event (and its redactor) do.
const done = new WeakMap<Redactor, WeakMap<object, unknown>>();

export function redactDeepOnce<T extends object>(value: T, redact: Redactor): T {
  let byValue = done.get(redact);
  if (byValue === undefined) {
    byValue = new WeakMap();
    done.set(redact, byValue);
  }
  const known = byValue.get(value);
  if (known !== undefined) return known as T;
  const redacted = redactDeep(value, redact);
  byValue.set(value, redacted);
  return redacted;
}
