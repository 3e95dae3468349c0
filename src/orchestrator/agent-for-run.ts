/**
 * The agent CLI a run's sessions go through, from the config's `agent` (or `--agent`): Claude Code
 * by default, the Codex CLI with `agent: codex`, the Gemini CLI with `agent: gemini`. Neither reports a cost, so their drivers price each
 * call with debussy's table (the config's `prices` included), as a claude session without a result is.
 * Their drivers are loaded only by a run that uses them: a claude run starts without their modules.
 */
import type { AgentDriver } from '../agent/agent-driver.js';
import { createClaudeDriver } from '../agent/claude/claude-driver.js';
import type { DebussyConfig } from '../config/index.js';
import { estimateCost, type PriceTable } from '../cost/index.js';

export async function agentForRun(config: DebussyConfig, prices: PriceTable): Promise<AgentDriver> {
  const priceCall = (model: string, tokens: Parameters<typeof estimateCost>[0]) => estimateCost(tokens, model, prices).usd;
  if (config.agent === 'codex') return (await import('../agent/codex/codex-driver.js')).createCodexDriver(config, priceCall);
  if (config.agent === 'gemini') return (await import('../agent/gemini/gemini-driver.js')).createGeminiDriver(config, priceCall);
  return createClaudeDriver(config);
}
