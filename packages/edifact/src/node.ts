/**
 * The Node.js entry (`@portal/edifact/node`): everything of the browser-safe index plus the directory store,
 * importer, download and guide loading, which read files, and the parallel mode (worker threads).
 */
export * from './index.ts';
export * from './directory/node/index.ts';
export * from './map/node/index.ts';
export * from './parallel/node/index.ts';
