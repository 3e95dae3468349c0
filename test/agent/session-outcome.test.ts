import { describe, expect, it } from 'vitest';
import { sessionOutcomeOf, type ResultEvent, type SessionEndFacts, type SessionOutcome } from '../../src/agent/index.js';

const result = (fields: Partial<ResultEvent>): ResultEvent => ({ type: 'result', subtype: 'success', isError: false, costUsd: 0, inputTokens: 0, outputTokens: 0, ...fields });
const facts = (fields: Partial<SessionEndFacts>): SessionEndFacts => ({ result: undefined, stopSignalled: false, killRequested: false, apiErrorSeen: false, ...fields });

describe('sessionOutcomeOf', () => {
  it.each<[string, SessionEndFacts, SessionOutcome]>([
    ['a successful result', facts({ result: result({ terminalReason: 'completed' }) }), 'completed'],
    ['success even though a stop was sent as it finished', facts({ result: result({}), stopSignalled: true }), 'completed'],
    ['success after the stop guard refused a tool call (claude ended its turn by itself)', facts({ result: result({}), guardRefused: true }), 'stopped'],
    ['no result line (exit 0 or not)', facts({}), 'crashed'],
    ['no result line after our SIGINT', facts({ stopSignalled: true }), 'stopped'],
    ['aborted tools after our SIGINT', facts({ result: result({ subtype: 'error_during_execution', isError: true, terminalReason: 'aborted_tools' }), stopSignalled: true }), 'stopped'],
    ['aborted without our stop', facts({ result: result({ subtype: 'error_during_execution', isError: true, terminalReason: 'aborted_tools' }) }), 'error'],
    ['an API error: success subtype but is_error with a status', facts({ result: result({ isError: true, apiErrorStatus: 429 }), apiErrorSeen: true }), 'api_error'],
    ['an API error without status (connection)', facts({ result: result({ isError: true, apiErrorStatus: null }), apiErrorSeen: true }), 'api_error'],
    ['prompt too long', facts({ result: result({ isError: true, terminalReason: 'prompt_too_long', apiErrorStatus: 400 }) }), 'api_error'],
    ['an API error as 2.1.332 ends it (terminal_reason api_error), without the synthetic message', facts({ result: result({ isError: true, terminalReason: 'api_error' }) }), 'api_error'],
    ['blocking limit: no API call at all', facts({ result: result({ isError: true, terminalReason: 'blocking_limit' }) }), 'api_error'],
    ['max turns', facts({ result: result({ subtype: 'error_max_turns', isError: true, terminalReason: 'max_turns' }) }), 'error'],
    ['budget exhausted', facts({ result: result({ subtype: 'error_max_budget_usd', isError: true }) }), 'error'],
    ['killed, whatever else', facts({ killRequested: true, result: result({}) }), 'killed'],
  ])('%s', (_name, input, expected) => {
    expect(sessionOutcomeOf(input)).toBe(expected);
  });
});
