import { runLockSuite } from './lock-suite.js';

runLockSuite();
