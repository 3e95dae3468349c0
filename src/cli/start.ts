/**
 * Runs debussy from its modules (dist/cli/): what bin/debussy.js imports when there is no bundle
 * (scripts/bundle.js) or it is older than the modules. The bundle calls `main` itself.
 */
import { main } from './main.js';

await main(process.argv);
