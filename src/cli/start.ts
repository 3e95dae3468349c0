/** Runs debussy: what bin/debussy.js imports for every command but the lean in-session path. */
import { main } from './main.js';

await main(process.argv);
