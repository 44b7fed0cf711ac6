/**
 * The file's text after the apply engine ran the operations on `before`; undefined when it refused them. `renames`:
 * the places of a RENAME_ELEMENT, as the diff gives them. The diff's own check, which the tests use as their oracle.
 */
export { applyToFileText as applyToFile } from '../../../../src/core/ops/diff/applyToText';
