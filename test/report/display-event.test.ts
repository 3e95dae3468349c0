import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/index.js';
import { describeAgentEvent } from '../../src/report/describe-event.js';
import { eventForDisplay, TOOL_OUTPUT_SHOWN_CHARS } from '../../src/report/display-event.js';
import { JsonReporter } from '../../src/report/json-reporter.js';
import { PlainReporter } from '../../src/report/plain-reporter.js';
import { createRedactor } from '../../src/redact/index.js';
import { snapshot } from './run-events.js';

const toolResult = (text: string, isError = false): AgentEvent => ({ type: 'tool_result', toolUseId: 'toolu_1', text, isError });
const SECRET = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';

describe('eventForDisplay', () => {
  const redact = createRedactor({});

  it('keeps short outputs and every other event as they are, redacted', () => {
    const short = toolResult('ok');
    expect(eventForDisplay(short, redact)).toEqual(short);
    const text: AgentEvent = { type: 'assistant_text', messageId: 'msg_1', text: `${'x'.repeat(100_000)} ${SECRET}` };
    expect(eventForDisplay(text, redact)).toEqual({ ...text, text: `${'x'.repeat(100_000)} [REDACTED]` });
  });

  it('cuts a long tool output to what any reporter shows', () => {
    const cut = eventForDisplay(toolResult('y'.repeat(5_000_000)), redact);
    expect(cut.type === 'tool_result' && cut.text.length).toBe(TOOL_OUTPUT_SHOWN_CHARS);
  });

  it('redacts an event once for the readable log and the reporters together', () => {
    const event = toolResult(`${'y'.repeat(10_000)} ${SECRET}`);
    let calls = 0;
    const counting = (text: string) => {
      calls += 1;
      return redact(text);
    };
    eventForDisplay(event, counting);
    const after = calls;
    eventForDisplay(event, counting);
    expect(after).toBeGreaterThan(0);
    expect(calls).toBe(after);
  });

  it('no reporter shows a secret that the cut split in two, whatever the output looks like', () => {
    const cutAt = (eventForDisplay(toolResult('y'.repeat(1_000_000)), redact) as { text: string }).text.length;
    // The secret straddles the cut: cut first, only its first 12 characters would be left, too
    // few for the redactor to know it. The output before it is mostly whitespace in some cases
    // (condensed lines fold it).
    for (const filler of ['z', ' ', '\n', ' \t\n']) {
      const before = `${filler.repeat(cutAt).slice(0, cutAt - 13)} `;
      for (const isError of [false, true]) {
        const shown = eventForDisplay(toolResult(`${before}${SECRET} and more`, isError), redact);
        const lines: string[] = [];
        for (const verbose of [false, true]) {
          lines.push(describeAgentEvent(shown, verbose)?.text ?? '');
          new PlainReporter((t) => lines.push(t), { verbose, timestamps: false }).agent('1', shown, snapshot());
        }
        new JsonReporter((t) => lines.push(t)).agent('1', shown, snapshot());
        const all = lines.join('\n');
        expect(all).not.toContain(SECRET.slice(0, 12));
      }
    }
  });
});
