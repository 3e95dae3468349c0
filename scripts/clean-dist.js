// Before publishing: dist/ holds only what the current sources build (no leftovers of deleted
// modules, no source maps from an older build). Plain Node, so it runs before anything is built.
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
