/** `debussy run --dry-run`: the execution order with dependencies, gates and status; starts nothing. */
import path from 'node:path';
import type { DebussyConfig } from '../config/index.js';
import { executionOrder, type Plan } from '../plan/index.js';
import { latestRun, readPhaseMarks } from '../state/index.js';
import { planResume } from '../orchestrator/resume-plan.js';

export async function printDryRun(root: string, plan: Plan, config: DebussyConfig, write: (text: string) => void): Promise<void> {
  const previous = await latestRun(root, plan.path);
  const interrupted = previous?.state?.status === 'running' || previous?.state?.status === 'interrupted';
  const resume = planResume({ plan, prior: previous?.state, priorInterrupted: interrupted, marks: await readPhaseMarks(root, plan.path) });
  write(`Plan: ${plan.name} (${path.relative(process.cwd(), plan.path) || plan.path})\n`);
  write(`Context threshold ${config.context_threshold}%, tool-call threshold ${config.tool_call_threshold}, max restarts ${config.max_restarts}${config.max_restarts === 0 || config.context_threshold >= 100 ? ' (one-shot mode)' : ''}, max retries ${config.max_retries}\n`);
  write('Execution order:\n');
  executionOrder(plan).forEach((phase, index) => {
    const done = resume.completed.get(phase.id);
    const carry = resume.carry.get(phase.id);
    const state = done ? `skip: ${done}` : carry ? `resume (restarts ${carry.restarts}, retries ${carry.retries})` : (phase.statusText ?? 'pending');
    write(`  ${index + 1}. ${phase.id}  ${phase.title}  [${state}]\n`);
    write(`     file: ${path.relative(process.cwd(), phase.path) || phase.path}\n`);
    write(`     depends on: ${phase.dependsOn.length > 0 ? phase.dependsOn.join(', ') : 'none'}\n`);
    const gates = phase.file?.gates ?? [];
    if (gates.length === 0) write('     gates: none\n');
    for (const gate of gates) write(`     gate ${gate.name}: ${gate.command ?? '(no command)'}${gate.commandSource === 'config' ? ' (from config)' : ''}\n`);
  });
  write('Dry run: nothing was started.\n');
}
