/** The operation text format: what the model writes and how it is read. See docs/operations.md. */
export { parseOperations } from './parseOperations';
export { serializeOperations, serializeOperationsAsJson } from './serializeOperations';
export { OPERATION_FORMAT_PROMPT } from './formatPrompt';
