export * from './schema.js';
export * from './duration.js';
export * from './resolve-config.js';
export * from './load-config-file.js';
export { allowedText } from './validate.js';
export { closestName } from './suggest.js';
export { loadProjectConfig } from './load-project-config.js';
export * from './render-reference.js';
export * from './json-schema.js';
