import { startScriptedApi } from './test/support/scripted-api.js';
import { CLAUDE_BIN, claudeEnv, makeClaudeConfigDir } from './test/support/claude.js';
import { execa } from 'execa';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
const mode = process.argv[2] ?? 'default';
const extra = process.argv.slice(3);
const commands = process.env.CMDS ? JSON.parse(process.env.CMDS) : ['true', 'echo hi', 'ls', 'pwd', 'cat f.txt', 'test -f f.txt', 'grep hi f.txt', 'wc -l f.txt', 'head -1 f.txt', 'git status', 'git diff', 'git log -1', 'npm test', 'npm test | tail -5', 'npm test 2>&1 | tail -5', 'echo a && echo b', 'true && echo ok', 'node -e 1', 'sort f.txt', 'diff f.txt f.txt', '[ -f f.txt ]', 'exit 0', ': noop', 'which node', 'make check', 'npx tsc --noEmit', 'cat f.txt | grep hi', 'find . -name f.txt', 'ls | wc -l', 'test -f f.txt && echo yes', 'npm test && npm run lint', 'cd sub && npm test', 'mkdir x'];
const dir = mkdtempSync(path.join(tmpdir(), 'probe-perm-'));
writeFileSync(path.join(dir, 'f.txt'), 'hi\n');
writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { test: 'echo tested', lint: 'echo linted' } }));
const script = [...commands.map((c) => ({ kind: 'tool_use', name: 'Bash', input: { command: c, description: c } })), { kind: 'text', text: 'done' }];
const api = await startScriptedApi({ script: script as any });
const cfg = await makeClaudeConfigDir();
const env: Record<string, string> = { ...claudeEnv(api.url, cfg.dir) };
const args = ['-p', '--output-format', 'stream-json', '--verbose', '--model', 'claude-sonnet-4-5', ...(mode === 'unset' ? [] : ['--permission-mode', mode]), ...extra];
const r = await execa(CLAUDE_BIN, args, { input: 'go', env, cwd: dir, reject: false, timeout: 120000 });
const uses = new Map<string, string>();
for (const l of r.stdout.split('\n')) { if (!l) continue; const o = JSON.parse(l);
  if (o.type === 'assistant') for (const b of o.message.content) if (b.type === 'tool_use') uses.set(b.id, b.input.command);
  if (o.type === 'user') for (const b of o.message.content ?? []) if (b.type === 'tool_result') { const c = typeof b.content === 'string' ? b.content : JSON.stringify(b.content); console.log((b.is_error && /approval|permission/i.test(c) ? 'REFUSED ' : 'allowed ').padEnd(8), JSON.stringify(uses.get(b.tool_use_id)), b.is_error ? c.slice(0, 90).replace(/\n/g, ' ') : ''); }
  if (o.type === 'result') console.log('denials', (o.permission_denials ?? []).length); }
console.log('rc', r.exitCode, r.stderr.slice(0, 200));
await api.close(); await cfg.cleanup();
