import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, CONFIG_SCHEMA, defaultConfig, parseDuration, resolveConfig } from '../../src/config/index.js';

describe('resolveConfig', () => {
  it('gives every key its schema default when nothing is set', () => {
    const resolved = resolveConfig({ file: undefined, raw: undefined });
    expect(resolved.errors).toEqual([]);
    expect(resolved.config).toEqual(defaultConfig());
    expect(resolved.config.context_threshold).toBe(80);
    expect(resolved.config.tool_call_threshold).toBe(100);
    expect(resolved.config.max_restarts).toBe(3);
    expect(resolved.config.max_retries).toBe(2);
    expect(resolved.config.auto_commit).toBe(true);
    expect(resolved.config.commit_on_failure).toBe(false);
    expect(resolved.config.claude_command).toBe('claude');
    expect(Object.values(resolved.sources).every((s) => s === 'default')).toBe(true);
  });

  it('applies defaults < file < flags and says where each value came from', () => {
    const resolved = resolveConfig({
      file: '/p/.debussy/config.yaml',
      raw: { context_threshold: 70, max_restarts: 5, model: 'sonnet' },
      flags: { context_threshold: '90' },
    });
    expect(resolved.errors).toEqual([]);
    expect(resolved.config.context_threshold).toBe(90);
    expect(resolved.sources.context_threshold).toBe('flag');
    expect(resolved.config.max_restarts).toBe(5);
    expect(resolved.sources.max_restarts).toBe('file');
    expect(resolved.config.model).toBe('sonnet');
    expect(resolved.sources.tool_call_threshold).toBe('default');
  });

  it.each([
    [{ context_threshold: 150 }, 'context_threshold: 150 is not allowed: expected a number from 1 to 100'],
    [{ max_restarts: -1 }, 'max_restarts: -1 is not allowed: expected a whole number of at least 0'],
    [{ max_restarts: 'three' }, 'max_restarts: "three" is not allowed'],
    [{ tool_call_threshold: 2.5 }, 'tool_call_threshold: 2.5 is not allowed: expected a whole number'],
    [{ auto_commit: 'yes' }, 'auto_commit: "yes" is not allowed: expected true or false'],
    [{ claude_args: '--x' }, 'claude_args: "--x" is not allowed: expected a list of strings'],
    [{ gates: { lint: 3 } }, 'gates: {"lint":3} is not allowed: expected a map of names to strings'],
    [{ session_timeout: 'soon' }, 'session_timeout: "soon" is not allowed: expected a duration'],
  ])('rejects %j naming the file, key, value and what is allowed', (raw, message) => {
    const resolved = resolveConfig({ file: '/p/.debussy/config.yaml', raw });
    expect(resolved.errors).toHaveLength(1);
    expect(resolved.errors[0]).toContain('/p/.debussy/config.yaml: ');
    expect(resolved.errors[0]).toContain(message);
  });

  it('rejects a bad flag value naming the flag', () => {
    const resolved = resolveConfig({ file: undefined, raw: undefined, flags: { context_threshold: 'abc', max_restarts: '-2' } });
    expect(resolved.errors).toEqual([
      '--context-threshold "abc" is not allowed: expected a number from 1 to 100',
      '--max-restarts "-2" is not allowed: expected a whole number of at least 0',
    ]);
  });

  it('warns on unknown keys with a did-you-mean suggestion and ignores them', () => {
    const resolved = resolveConfig({ file: 'cfg.yaml', raw: { context_treshold: 70, max_restart: 2, zzzz_unrelated: 1 } });
    expect(resolved.errors).toEqual([]);
    expect(resolved.warnings).toEqual([
      'cfg.yaml: unknown key "context_treshold" (did you mean "context_threshold"?); it is ignored',
      'cfg.yaml: unknown key "max_restart" (did you mean "max_restarts"?); it is ignored',
      'cfg.yaml: unknown key "zzzz_unrelated"; it is ignored',
    ]);
    expect(resolved.config.context_threshold).toBe(80);
  });

  it('rejects a file that is not a map', () => {
    expect(resolveConfig({ file: 'c.yaml', raw: ['a'] }).errors[0]).toContain('expected a map of settings');
  });

  it('parses durations in config as ms', () => {
    expect(resolveConfig({ file: undefined, raw: { session_timeout: '45m', stop_grace: 2 } }).config).toMatchObject({ session_timeout: 2_700_000, stop_grace: 2000 });
    expect(parseDuration('1500ms')).toBe(1500);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('x')).toBeUndefined();
  });

  it('has a description for every key', () => {
    for (const key of CONFIG_KEYS) expect(CONFIG_SCHEMA[key].description.length).toBeGreaterThan(10);
  });
});
