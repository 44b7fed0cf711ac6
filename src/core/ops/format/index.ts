/** The operation text format: what the model writes and how it is read. See docs/operations.md. */
export { DEFAULT_MAX_ANSWER_BYTES, DEFAULT_MAX_OPERATIONS, parseOperations, type ParseLimits } from './parseOperations';
export { serializeOperations, serializeOperationsAsJson } from './serializeOperations';
export { OPERATION_FORMAT_PROMPT } from './formatPrompt';
