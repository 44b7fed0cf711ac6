import type { BlankLinesAround, Operation, SearchReplacePair } from '../operation';
import { PathState, type TrackedElement, type TrackedTree } from './pathTracker';

/** An operation planned against element references; its paths are written by {@link writeOperations}. */
export type OpSpec =
  | { readonly type: 'REPLACE_ELEMENT'; readonly target: TrackedElement; readonly content: string }
  | {
      readonly type: 'PATCH_ELEMENT';
      /** Undefined: the file itself, whose text between top-level elements the patch changes. */
      readonly target: TrackedElement | undefined;
      readonly patches: readonly SearchReplacePair[];
    }
  | { readonly type: 'DELETE_ELEMENT'; readonly target: TrackedElement }
  | {
      readonly type: 'CREATE_ELEMENT';
      readonly created: TrackedElement;
      /** The sibling it goes after, else the one it goes before, else it is the container's only child. */
      readonly previous: TrackedElement | undefined;
      readonly next: TrackedElement | undefined;
      readonly content: string;
      /** FIRST_CHILD of the file: a directive, which the apply engine puts at the top of the file. */
      readonly first?: boolean;
      /** The blank lines around it, when the container's own spacing would not give them. */
      readonly blankLines?: BlankLinesAround;
    }
  | { readonly type: 'ADD_IMPORT'; readonly content: string; readonly created: TrackedElement | undefined }
  | { readonly type: 'REMOVE_IMPORT'; readonly content: string; readonly removed: TrackedElement | undefined }
  | { readonly type: 'REPLACE_FILE'; readonly content: string };

/** Writes the operations with their paths. */
export function writeOperations(tree: TrackedTree, specs: readonly OpSpec[]): Operation[] {
  const state = new PathState(tree);
  return specs.map((spec): Operation => {
    switch (spec.type) {
      case 'REPLACE_ELEMENT':
        return { type: spec.type, path: state.pathOf(spec.target), content: spec.content };
      case 'PATCH_ELEMENT':
        return { type: spec.type, path: state.pathOf(spec.target), patches: spec.patches };
      case 'DELETE_ELEMENT':
        return { type: spec.type, path: state.pathOf(spec.target) };
      case 'CREATE_ELEMENT': {
        const path = state.pathOf(spec.created.parent);
        const position =
          spec.first === true
            ? ({ kind: 'FIRST_CHILD' } as const)
            : spec.previous !== undefined
              ? ({ kind: 'AFTER', sibling: state.segmentOf(spec.previous) } as const)
              : spec.next !== undefined
                ? ({ kind: 'BEFORE', sibling: state.segmentOf(spec.next) } as const)
                : ({ kind: 'LAST_CHILD' } as const);
        return {
          type: spec.type,
          path,
          position,
          content: spec.content,
          ...(spec.blankLines === undefined ? {} : { blankLines: spec.blankLines }),
        };
      }
      case 'ADD_IMPORT':
        return { type: spec.type, path: tree.file, content: spec.content };
      case 'REMOVE_IMPORT':
        return { type: spec.type, path: tree.file, content: spec.content };
      case 'REPLACE_FILE':
        return { type: spec.type, path: tree.file, content: spec.content };
    }
  });
}
