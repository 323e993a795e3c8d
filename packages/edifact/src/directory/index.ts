/** Directory tables, importer building blocks and providers that run anywhere (no Node built-ins). */
export type {
  CodeListDef,
  ComponentDef,
  CompositeDef,
  DataElementDef,
  Directory,
  DirectoryInfo,
  DirectoryProvider,
  GroupNodeDef,
  MessageDef,
  SegmentDef,
  SegmentElementDef,
  SegmentNodeDef,
  Status,
  StructureNodeDef,
} from './types.ts';
export { createMemoryDirectoryProvider } from './types.ts';
export { buildDirectory, classifyDirectoryFile, type DirectoryFile } from './build.ts';
export {
  decodeDirectory,
  encodeCodes,
  encodeTables,
  STORE_FORMAT,
  type StoredCodes,
  type StoredTables,
} from './store-format.ts';
