import { describe, expect, it } from 'vitest';
import { renderConfigFile } from '../../src/config/render-reference.js';
import { resolveConfig } from '../../src/config/index.js';
import { choosePermissions, permissionConfigChoices } from '../../src/scaffold/index.js';
import YAML from 'yaml';

describe('choosePermissions', () => {
  it.each<[string[], string[], string[]]>([
    [[], [], []],
    [['package.json', 'src'], ['npm'], ['Bash(npm test:*)', 'Bash(npm run:*)', 'Bash(npx:*)']],
    [['pyproject.toml'], ['Python'], ['Bash(pytest:*)', 'Bash(ruff:*)']],
    [['Cargo.toml', 'Makefile'], ['cargo', 'make'], ['Bash(cargo test:*)', 'Bash(make:*)']],
    [['go.mod'], ['Go'], ['Bash(go test:*)']],
    [['package.json', 'pnpm-lock.yaml'], ['npm', 'pnpm'], ['Bash(pnpm:*)']],
  ])('%j -> %j', (files, toolchains, someRules) => {
    const choice = choosePermissions(files);
    expect(choice.permission_mode).toBe('acceptEdits');
    expect(choice.toolchains).toEqual(toolchains);
    for (const rule of someRules) expect(choice.allowed_tools).toContain(rule);
    // Looking around is always allowed; nothing is listed twice.
    expect(choice.allowed_tools).toContain('Bash(git diff:*)');
    expect(new Set(choice.allowed_tools).size).toBe(choice.allowed_tools.length);
  });

  it('renders as uncommented keys under a comment saying what it risks, and reads back without problems', () => {
    const text = renderConfigFile(permissionConfigChoices(choosePermissions(['package.json'])), { schema: 'config.schema.json', reference: 'configuration.md' });
    const header = text.indexOf('# --- permissions ---');
    expect(header).toBeGreaterThan(0);
    const block = text.slice(header, text.indexOf('# --- gates ---'));
    expect(block).toContain('RISK');
    expect(block).toContain('container, a VM or a throwaway checkout');
    expect(block).toContain('bypassPermissions');
    expect(block).toMatch(/^permission_mode: "acceptEdits"$/m);
    expect(block).toMatch(/^allowed_tools: \[.*"Bash\(npm test:\*\)".*\]$/m);
    const resolved = resolveConfig({ file: 'config.yaml', raw: YAML.parse(text) });
    expect(resolved.errors).toEqual([]);
    expect(resolved.warnings).toEqual([]);
    expect(resolved.config.permission_mode).toBe('acceptEdits');
  });
});
