import { UsageError } from '../errors/index.js';
import type { Phase, Plan } from './types.js';

/** The phase `id` of `plan`, named by `flag` on the command line; a usage error listing the valid ids when there is none. */
export function requirePhase(plan: Plan, id: string, flag: string): Phase {
  const phase = plan.phases.find((p) => p.id === id);
  if (!phase) throw new UsageError(`${flag} ${id}: unknown phase "${id}" in ${plan.name}`, `Valid phase ids: ${plan.phases.map((p) => p.id).join(', ')}`);
  return phase;
}
