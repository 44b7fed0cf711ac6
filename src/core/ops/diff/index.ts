/** The element diff: two versions of a file to the minimal element operations between them. */
export {
  diffElements,
  diffElementsInDetail,
  type DiffFallback,
  type DiffFallbackKind,
  type ElementDiff,
  type ElementDiffOptions,
} from './diffElements';
