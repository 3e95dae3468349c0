import { startScriptedApi } from './test/support/scripted-api.js';
import { CLAUDE_BIN, claudeEnv, makeClaudeConfigDir } from './test/support/claude.js';
import { execa } from 'execa';
const kind = process.argv[2];
const turns: any = {
  e429: [{ kind: 'error', status: 429, type: 'rate_limit_error', message: 'rate limited', headers: { 'retry-after': '120' } }],
  e401: [{ kind: 'error', status: 401, type: 'authentication_error', message: 'invalid x-api-key' }],
  sleep: [{ kind: 'tool_use', name: 'Bash', input: { command: 'sleep 30' } }, { kind: 'text', text: 'done' }],
};
const api = await startScriptedApi({ script: turns[kind] });
const cfg = await makeClaudeConfigDir();
const env = { ...claudeEnv(api.url, cfg.dir), CLAUDE_CODE_MAX_RETRIES: '0' };
const child = execa(CLAUDE_BIN, ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions', '--model', 'sonnet'], { input: 'go', env, cwd: '/tmp', reject: false });
if (kind === 'sleep') setTimeout(() => child.kill('SIGINT'), 4000);
const r = await child;
console.log('rc', r.exitCode, r.signal);
for (const l of r.stdout.split('\n')) { if (!l) continue; const o = JSON.parse(l); if (o.type==='system' && o.subtype==='init') { console.log('init', o.claude_code_version, o.model); continue; } if (o.type==="result") { const { usage, modelUsage, ...rest } = o; console.log("RESULT", JSON.stringify(rest)); } else console.log(JSON.stringify(o).slice(0, 400)); }
console.log('stderr', r.stderr.slice(0, 500));
console.log('requests', api.requests.map(r => r.method + ' ' + r.path));
await api.close(); await cfg.cleanup();
