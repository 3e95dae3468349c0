import { E2EProject } from './test/e2e/e2e-project.js';
import { livePids } from './test/e2e/processes.js';
import { bash, done, scriptBySession, write } from './test/e2e/session-script.js';
const p = await E2EProject.create({ phases: [{ id: '1', title: 'X' }], script: scriptBySession({ fresh: [write('wip.txt', 'w\n'), bash('sleep 6.17 && true'), done()] }) });
const s = p.start(['run', p.planArg]);
for (let i = 0; i < 40; i++) { await new Promise(r => setTimeout(r, 250)); const found = livePids(/^sleep 6\.17$/); if (found.length) { console.log('found', found); break; } }
const r = await s.done;
console.log(r.code, r.stdout.slice(-1200));
await p.dispose();
