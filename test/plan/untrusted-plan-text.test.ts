/**
 * Terminal control sequences in a plan's files and in a project's config (both come with a cloned
 * repository) are shown, never executed, by audit, run --dry-run and config, as text and JSON:
 * the commands in process, in a project holding them, as a user would run them there. JSON keeps
 * what the plan says, escaped, so a program reading it loses nothing.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import auditCommand from '../../src/cli/commands/audit.js';
import configCommand from '../../src/cli/commands/config.js';
import runCommand from '../../src/cli/commands/run.js';
import { FOREIGN, HOSTILE, hostilePlanFiles } from '../support/hostile-text.js';
import { LoopProject, useLoopStateDir } from '../support/in-process-run.js';
import { commandStdout } from '../support/loop-output.js';

useLoopStateDir();

const PLAN = 'plans/e2e/MASTER_PLAN.md';

describe('control sequences in plan files and the config', () => {
  it('audit, --dry-run and config, as text and JSON, show the plan and the config without them', async () => {
    const project = LoopProject.create([{ id: '1', title: 'x' }], {
      files: {
        ...hostilePlanFiles("printf 'gate'; test -f fixed.txt"),
        // A gate mapped in the config, and an unknown key (warned about).
        '.debussy/config.yaml': YAML.stringify({ gates: { lint: `printf '${HOSTILE}'` }, [`colour${HOSTILE}`]: true }),
      },
    });
    try {
      const commands: [string, () => Promise<number>][] = [
        ['audit', () => auditCommand(PLAN, {})],
        ['audit --json', () => auditCommand(PLAN, { json: true })],
        ['run --dry-run', () => runCommand(PLAN, { dryRun: true })],
        ['run --dry-run --json', () => runCommand(PLAN, { dryRun: true, json: true })],
        ['config', () => configCommand({})],
        ['config --json', () => configCommand({ json: true })],
      ];
      const printed: Record<string, string> = {};
      for (const [name, command] of commands) {
        let code: number | undefined;
        printed[name] = await commandStdout(project.dir, async () => (code = await command()), { withStderr: true });
        expect(code, `${name}: ${printed[name]}`).toBe(0);
        expect(printed[name], `debussy ${name} holds a control character from the hostile text`).not.toMatch(FOREIGN);
        expect(printed[name], name).toMatch(name.startsWith('config') ? /printf/ : /Hostile.*Plan/);
      }
      // The audit says the plan carries them; JSON keeps what the plan says, escaped.
      expect(printed['audit']).toMatch(/MASTER_PLAN\.md: warning: the plan's title holds terminal control characters/);
      const json = JSON.parse(await commandStdout(project.dir, () => auditCommand(PLAN, { json: true }))) as { plan: { name: string } };
      expect(json.plan.name).toBe(`Hostile${HOSTILE}Plan`);
    } finally {
      project.cleanup();
    }
  });
});
