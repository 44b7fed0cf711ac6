/** Writing files from an answer: the gate every surface passes and the CLI's all-or-nothing disk writer. */
export { checkWriteTargets, type GateVerdict, type WriteGateOptions } from './writeGate';
export { protectionOf, type Protection, type WritePolicyOptions } from './writePolicy';
export { describeFsError, resolveWriteTarget, type WriteTarget } from './writeTarget';
export {
  type FileWrite,
  type WriteFailureKind,
  type WriteFilesOptions,
  type WriteFilesResult,
  writeFiles,
} from './writeFiles';
export { writePolicyGate } from './writePolicyGate';
