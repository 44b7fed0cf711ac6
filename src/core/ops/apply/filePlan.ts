import type { Action, Expectation, OpFailure } from './actions';
import type { Operation } from '../operation';
import type { FileOutline } from '../../elements/element';
import { ElementNestingError } from '../../elements/nesting';
import type { LanguageSupport } from '../../language/languageSupport';
import type { TextStyle } from './textStyle';
import { planCreate } from './plan/planCreate';
import { planDelete } from './plan/planDelete';
import { finish } from './plan/planFinish';
import { planImport } from './plan/planImports';
import { planPatch } from './plan/planPatch';
import { planReplace } from './plan/planReplace';
import { type ElementOperation, PlanState } from './plan/planState';

/**
 * Plans the element and import operations of one file against its snapshot: resolves every path once, composes
 * operations that touch the same element, refuses those that collide, and turns the rest into actions for the
 * renderer. Nothing here reads the text as edited; every decision is made on the snapshot.
 *
 * Compositions (same element, in batch order):
 * - PATCH then PATCH, REPLACE then PATCH: the later searches run on the text the earlier operation left.
 * - PATCH then REPLACE: refused (the replace would silently drop the patch).
 * - REPLACE then REPLACE: refused (a duplicate, or two versions of one element).
 * - DELETE with any other edit of the same element: refused, either order.
 * - DELETE X and CREATE of an element named X in the same container, either order: both apply; the new element
 *   takes the place the CREATE names (a replace, or a move).
 * - An edit of an element and an edit of anything inside it (REPLACE of a class and PATCH of its method, CREATE in
 *   a class that is also replaced): refused; the inner change belongs in the outer operation.
 * - Several CREATEs at one position go in batch order; BEFORE/AFTER may name an element created earlier in the
 *   batch. Creating a name the container already has is refused unless the batch deletes that element.
 * - ADD_IMPORT/REMOVE_IMPORT of one module compose in order; an element operation on an import declaration that an
 *   import operation also changes is refused.
 */

/*
 * Each operation kind is planned in its own module under plan/ over one shared PlanState; this class is their front.
 */

export interface FilePlan {
  readonly actions: readonly Action[];
  readonly expectations: readonly Expectation[];
  readonly failures: ReadonlyMap<number, OpFailure>;
  readonly notes: ReadonlyMap<number, string>;
  /** Operations that renamed their element → its new path. */
  readonly renames: ReadonlyMap<number, string>;
  /** Operations whose path was resolved tolerantly → the path it was read as. */
  readonly readAs: ReadonlyMap<number, string>;
}

export class FilePlanner {
  private readonly state: PlanState;

  constructor(file: string, text: string, language: LanguageSupport, style: TextStyle) {
    this.state = new PlanState(file, text, language, style);
  }

  /** The outline of the snapshot, from the same parse the plan uses. */
  get outline(): FileOutline {
    return this.state.outline;
  }

  plan(index: number, operation: ElementOperation): void {
    try {
      switch (operation.type) {
        case 'REPLACE_ELEMENT':
          planReplace(this.state, index, operation);
          break;
        case 'PATCH_ELEMENT':
          planPatch(this.state, index, operation);
          break;
        case 'DELETE_ELEMENT':
          planDelete(this.state, index, operation);
          break;
        case 'CREATE_ELEMENT':
          planCreate(this.state, index, operation);
          break;
        case 'ADD_IMPORT':
        case 'REMOVE_IMPORT':
          planImport(this.state, index, operation);
          break;
      }
    } catch (error) {
      // A defect here must cost this operation, not the batch or the session.
      const reason = error instanceof Error ? error.message : String(error);
      this.state.fail(
        index,
        error instanceof ElementNestingError
          ? { message: `${operation.type} ${operation.path}: ${reason}`, hint: 'leave this file out of the answer' }
          : { message: `internal error while planning ${operation.type} ${operation.path}: ${reason}` },
      );
    }
  }

  /** Checks what needs the whole batch (names created), then turns the plan into actions. */
  finish(failedElsewhere: ReadonlySet<number> = new Set()): FilePlan {
    return finish(this.state, failedElsewhere);
  }
}

export type { ElementOperation };
/** Operations planned per file on its elements: all but the whole-file ones and RENAME_ELEMENT (renameMerge.ts). */
export const isElementOperation = (op: Operation): op is ElementOperation =>
  op.type !== 'CREATE_FILE' && op.type !== 'REPLACE_FILE' && op.type !== 'RENAME_ELEMENT';
