/** The apply engine: operations in, verified file changes out. Pure; no file system, no VS Code. */
export { applyOperations } from './applyOperations';
export type { ApplyOptions, ApplyResult, EditStrategy, FileChange, SnapshotReader, TextEdit } from './types';
export { applyEdits } from './editBuffer';
