import { processTreeSuite } from './process-tree-suite.js';

processTreeSuite();
