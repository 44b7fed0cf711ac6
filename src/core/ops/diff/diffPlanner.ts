import type { TokenCounter } from '../../context/tokens';
import type { ElementNode, FileOutline } from '../../elements/element';
import type { LanguageSupport } from '../../language/languageSupport';
import { isDirectiveContent } from '../apply/plan/planCreate';
import type { BlankLinesAround, Operation } from '../operation';
import { serializeOperations } from '../format/serializeOperations';
import { alignElements, type AnchorPair } from './alignElements';
import { writeOperations, type OpSpec } from './opSpecs';
import { searchReplacePairs } from './patchPairs';
import { PathState, type TrackedElement, type TrackedTree } from './pathTracker';
import {
  blankLinesAround,
  dedentElementText,
  firstTextAfter,
  freeTextLines,
  indentationBefore,
  lastTextBefore,
} from './textLines';
import {
  type Candidate,
  type DescendCandidate,
  type DiffFallback,
  type LeafCandidate,
  mergeMoves,
  type Region,
  sortCandidates,
  type Unit,
} from './diffUnits';
import { type ApplyToText, UnitResolver } from './unitResolver';

/**
 * Plans the operations of one file's diff as a tree of units, each a stretch of the file that changed (an element,
 * or the text between two unchanged elements), with candidate ways to express it sorted by their cost in tokens.
 * Candidates are checked by applying them: a unit counts as done only when the apply engine turns the old file,
 * with just that unit's change, into exactly that text. What cannot be checked this way falls back to the enclosing
 * unit's next candidate, and in the end to REPLACE_FILE.
 *
 * This file builds the unit tree: one recursion over the two outlines and the path tracker, each unit's candidates
 * drawn up from its children's. The pieces around it: the unit model and its ordering (diffUnits.ts), choosing a
 * candidate by applying it (unitResolver.ts), alignElements.ts, opSpecs.ts, patchPairs.ts, textLines.ts, and the
 * language's import rules.
 */

type DescendResult =
  { readonly ok: true; readonly candidate: DescendCandidate } | { readonly ok: false; readonly reason: string };

export class DiffPlanner {
  private readonly beforeText: string;
  private readonly afterText: string;
  private readonly resolver: UnitResolver;

  constructor(
    private readonly before: FileOutline,
    private readonly after: FileOutline,
    private readonly tree: TrackedTree,
    private readonly counter: TokenCounter,
    apply: ApplyToText,
    /** Turns text of the file into text of an operation (line breaks). */
    private readonly toOperationText: (text: string) => string,
    private readonly language: LanguageSupport,
  ) {
    this.beforeText = before.text;
    this.afterText = after.text;
    this.resolver = new UnitResolver(this.beforeText, this.afterText, tree, apply);
  }

  /** How many times the apply engine ran to check candidates. */
  get applyCount(): number {
    return this.resolver.applyCount;
  }

  /** The verified operations for the whole file, with the fallbacks that were needed. */
  plan(): {
    readonly operations: Operation[];
    readonly fallbacks: readonly DiffFallback[];
    readonly verified: boolean;
  } {
    const unit = this.fileUnit();
    const resolution = this.resolver.resolve(unit);
    if (resolution !== undefined) {
      return {
        operations: writeOperations(this.tree, resolution.specs),
        fallbacks: resolution.fallbacks,
        verified: true,
      };
    }
    const replaceFile: OpSpec[] = [{ type: 'REPLACE_FILE', content: this.afterText }];
    return {
      operations: writeOperations(this.tree, replaceFile),
      fallbacks: [{ kind: 'file', path: this.tree.file, reason: 'no operations reproduce the new text exactly' }],
      verified: false,
    };
  }

  private fileUnit(): Unit {
    const region: Region = {
      beforeStart: 0,
      beforeEnd: this.beforeText.length,
      afterStart: 0,
      afterEnd: this.afterText.length,
    };
    const candidates: Candidate[] = [this.leaf('replace-file', [{ type: 'REPLACE_FILE', content: this.afterText }])];
    const descend =
      this.descendWithImportBlock(region) ?? this.descend(this.before.elements, this.after.elements, undefined, region);
    if (descend.ok) candidates.push(descend.candidate);
    return {
      path: this.tree.file,
      region,
      candidates: sortCandidates(candidates),
      isFile: true,
      ...(descend.ok ? {} : { notDescended: descend.reason }),
    };
  }

  /**
   * ADD_IMPORT puts a new import after the last one, so an import added in the middle of the list cannot be placed
   * by itself. When the leading imports changed, they become one unit whose fallback keeps the longest unchanged
   * run of imports and removes and adds back every import after it, in order.
   */
  private descendWithImportBlock(region: Region): DescendResult | undefined {
    // Directives ('use client') come before the imports and belong to the block: one added there is a change of
    // the block, not of the code after it.
    const leadingImports = (elements: readonly ElementNode[], text: string): number => {
      const count = elements.findIndex((e) => e.kind !== 'import' && !isDirectiveElement(e, text));
      return count < 0 ? elements.length : count;
    };
    const beforeCount = leadingImports(this.before.elements, this.beforeText);
    const afterCount = leadingImports(this.after.elements, this.afterText);
    const lastBefore = this.before.elements[beforeCount - 1];
    const lastAfter = this.after.elements[afterCount - 1];
    if (lastBefore === undefined || lastAfter === undefined) return undefined;
    const blockRegion: Region = {
      beforeStart: region.beforeStart,
      beforeEnd: lastBefore.range.end,
      afterStart: region.afterStart,
      afterEnd: lastAfter.range.end,
    };
    if (!this.textsDiffer(blockRegion)) return undefined;
    const beforeImports = this.before.elements.slice(0, beforeCount);
    const afterImports = this.after.elements.slice(0, afterCount);
    const rest = this.descend(
      this.before.elements.slice(beforeCount),
      this.after.elements.slice(afterCount),
      undefined,
      {
        beforeStart: blockRegion.beforeEnd,
        beforeEnd: region.beforeEnd,
        afterStart: blockRegion.afterEnd,
        afterEnd: region.afterEnd,
      },
    );
    if (!rest.ok) return rest;
    const candidates: Candidate[] = [];
    const blockDescend = this.descend(beforeImports, afterImports, undefined, blockRegion);
    if (blockDescend.ok) {
      candidates.push(blockDescend.candidate);
      // An import moved is deleted in one place and created in another; created first, it would merge into the
      // declaration it replaces. The same operations with every deletion first keep the import list's order.
      const specs = blockDescend.candidate.parts.flatMap((part) => {
        const structure = part.candidates.find((c): c is LeafCandidate => c.label === 'structure');
        return structure?.specs ?? this.resolver.preferredSpecs(part);
      });
      const deletions: OpSpec[] = specs.filter(
        (spec) => spec.type === 'DELETE_ELEMENT' || spec.type === 'REMOVE_IMPORT',
      );
      if (deletions.length > 0 && deletions.length < specs.length) {
        const rest = specs.filter((spec) => !deletions.includes(spec));
        candidates.push(this.leaf('structure', [...deletions, ...rest]));
      }
    }
    const recreated = this.recreatedInPlace(beforeImports, afterImports);
    if (recreated !== undefined) candidates.push(this.leaf('structure', recreated));
    const directives = (elements: readonly ElementNode[], text: string): string[] =>
      elements.filter((e) => isDirectiveElement(e, text)).map((e) => text.slice(e.range.start, e.range.end));
    const beforeDirectives = directives(beforeImports, this.beforeText);
    let kept = 0;
    while (
      kept < beforeImports.length &&
      kept < afterImports.length &&
      this.textOf(this.beforeText, beforeImports[kept]) === this.textOf(this.afterText, afterImports[kept])
    ) {
      kept += 1;
    }
    const rebuild: OpSpec[] = [
      ...beforeImports.slice(kept).map((element): OpSpec => ({
        type: 'REMOVE_IMPORT',
        content: this.toOperationText(
          this.beforeText.slice(element.declarationRange.start, element.declarationRange.end),
        ),
        removed: this.trackedOrThrow(element),
      })),
      ...afterImports
        .slice(kept)
        .map((element): OpSpec => ({ type: 'ADD_IMPORT', content: this.contentOf(element), created: undefined })),
    ];
    // Removing and adding back imports cannot move a directive: offered only when the directives stay as they are.
    const sameDirectives =
      beforeDirectives.join('\n') === directives(afterImports, this.afterText).join('\n') &&
      [...beforeImports.slice(kept), ...afterImports.slice(kept)].every((e) => e.kind === 'import');
    if (sameDirectives) candidates.push(this.leaf('imports', rebuild));
    const block: Unit = {
      path: `${this.tree.file} imports`,
      region: blockRegion,
      candidates: sortCandidates(candidates),
      isImportBlock: true,
    };
    const parts = [block, ...rest.candidate.parts];
    const cost = parts.reduce((sum, part) => sum + (part.candidates[0]?.cost ?? Infinity), 0);
    return { ok: true, candidate: { label: 'descend', cost, parts } };
  }

  /**
   * Each import whose text changed deleted and created again where it stood, for the changes no import operation
   * says (the header comment above the first import removed). Only when the list keeps its imports in their order.
   */
  private recreatedInPlace(
    beforeImports: readonly ElementNode[],
    afterImports: readonly ElementNode[],
  ): OpSpec[] | undefined {
    if (beforeImports.length !== afterImports.length) return undefined;
    const specs: OpSpec[] = [];
    let previous: TrackedElement | undefined;
    for (const [i, before] of beforeImports.entries()) {
      const after = afterImports[i];
      if (after === undefined || before.kind !== 'import' || after.kind !== 'import' || before.name !== after.name) {
        return undefined;
      }
      const tracked = this.trackedOrThrow(before);
      if (this.textOf(this.beforeText, before) === this.textOf(this.afterText, after)) {
        previous = tracked;
        continue;
      }
      const created: TrackedElement = { kind: after.kind, name: after.name, parent: undefined };
      const following = beforeImports[i + 1];
      specs.push({ type: 'DELETE_ELEMENT', target: tracked });
      specs.push({
        type: 'CREATE_ELEMENT',
        created,
        previous,
        next: following === undefined ? undefined : this.trackedOrThrow(following),
        content: this.contentOf(after),
      });
      previous = created;
    }
    return specs.length === 0 ? undefined : specs;
  }

  private textOf(text: string, element: ElementNode | undefined): string | undefined {
    return element === undefined ? undefined : text.slice(element.range.start, element.range.end);
  }

  private elementUnit(before: ElementNode, after: ElementNode): Unit {
    const target = this.trackedOrThrow(before);
    const region: Region = {
      beforeStart: before.range.start,
      beforeEnd: before.range.end,
      afterStart: after.range.start,
      afterEnd: after.range.end,
    };
    const oldText = this.beforeText.slice(region.beforeStart, region.beforeEnd);
    const newText = this.afterText.slice(region.afterStart, region.afterEnd);
    const candidates: Candidate[] = [];
    const content = this.contentOf(after);
    candidates.push(this.leaf('replace', [{ type: 'REPLACE_ELEMENT', target, content }]));
    const verbatim = this.toOperationText(newText);
    if (verbatim !== content) {
      candidates.push(this.leaf('replace-verbatim', [{ type: 'REPLACE_ELEMENT', target, content: verbatim }]));
    }
    const pairs = searchReplacePairs(this.toOperationText(oldText), this.toOperationText(newText));
    if (pairs !== undefined && pairs.length > 0) {
      candidates.push(this.leaf('patch', [{ type: 'PATCH_ELEMENT', target, patches: pairs }]));
    }
    if (before.kind === 'import') {
      const change = this.language.importBindingChange?.(oldText, newText);
      if (change !== undefined) {
        const specs: OpSpec[] = [];
        if (change.remove !== undefined)
          specs.push({ type: 'REMOVE_IMPORT', content: change.remove, removed: undefined });
        if (change.add !== undefined) specs.push({ type: 'ADD_IMPORT', content: change.add, created: undefined });
        candidates.push(this.leaf('imports', specs));
      }
    }
    let notDescended: string | undefined;
    if (before.children.length > 0 || after.children.length > 0) {
      const descend = this.descendInto(before, after, target);
      if (descend.ok) candidates.push(descend.candidate);
      else notDescended = descend.reason;
    }
    return {
      path: before.path,
      region,
      // One operation per changed member, even when patching the container would cost a few tokens less: the
      // focus of an edit is what its operations name, and a patched class puts the whole class in focus.
      candidates: sortCandidates(candidates, true),
      ...(notDescended === undefined ? {} : { notDescended }),
    };
  }

  /** Member by member, when the container's own text around its members stays the same. */
  private descendInto(before: ElementNode, after: ElementNode, target: TrackedElement): DescendResult {
    const firstBefore = before.children[0];
    const lastBefore = before.children.at(-1);
    const firstAfter = after.children[0];
    const lastAfter = after.children.at(-1);
    if (firstBefore === undefined && firstAfter !== undefined) {
      const filled = this.descendIntoEmpty(before, after, target);
      if (filled !== undefined) return filled;
    }
    if (firstBefore === undefined || lastBefore === undefined || firstAfter === undefined || lastAfter === undefined) {
      return {
        ok: false,
        reason: before.children.length === 0 ? 'members added to an empty container' : 'all members removed',
      };
    }
    const head = (text: string, element: ElementNode, first: ElementNode): string =>
      text.slice(element.range.start, first.range.start);
    const tail = (text: string, element: ElementNode, last: ElementNode): string =>
      text.slice(last.range.end, element.range.end);
    // The container's own text before its first member and after its last: patched apart from the members.
    const frames: Region[] = [];
    if (head(this.beforeText, before, firstBefore) !== head(this.afterText, after, firstAfter)) {
      frames.push({
        beforeStart: before.range.start,
        beforeEnd: firstBefore.range.start,
        afterStart: after.range.start,
        afterEnd: firstAfter.range.start,
      });
    }
    if (tail(this.beforeText, before, lastBefore) !== tail(this.afterText, after, lastAfter)) {
      frames.push({
        beforeStart: lastBefore.range.end,
        beforeEnd: before.range.end,
        afterStart: lastAfter.range.end,
        afterEnd: after.range.end,
      });
    }
    const members: Region = {
      beforeStart: firstBefore.range.start,
      beforeEnd: lastBefore.range.end,
      afterStart: firstAfter.range.start,
      afterEnd: lastAfter.range.end,
    };
    return this.descend(before.children, after.children, target, members, frames);
  }

  /**
   * Members written into an empty body (`interface A {}`): each created as the container's last child, its header
   * and closing text, where they changed, patched apart. Undefined when either side has no body block.
   */
  private descendIntoEmpty(before: ElementNode, after: ElementNode, target: TrackedElement): DescendResult | undefined {
    const oldBody = before.bodyRange;
    const newBody = after.bodyRange;
    if (oldBody === undefined || newBody === undefined) return undefined;
    const frames: Region[] = [];
    const head: Region = {
      beforeStart: before.range.start,
      beforeEnd: oldBody.start + 1,
      afterStart: after.range.start,
      afterEnd: newBody.start + 1,
    };
    const tail: Region = {
      beforeStart: oldBody.end - 1,
      beforeEnd: before.range.end,
      afterStart: newBody.end - 1,
      afterEnd: after.range.end,
    };
    if (this.textsDiffer(head)) frames.push(head);
    if (this.textsDiffer(tail)) frames.push(tail);
    const members: Region = {
      beforeStart: oldBody.start + 1,
      beforeEnd: oldBody.end - 1,
      afterStart: newBody.start + 1,
      afterEnd: newBody.end - 1,
    };
    return this.descend([], after.children, target, members, frames);
  }

  private descend(
    beforeList: readonly ElementNode[],
    rawAfterList: readonly ElementNode[],
    container: TrackedElement | undefined,
    region: Region,
    /** Changed text of the container outside its members found by the caller (its header, its closing part). */
    containerFrames: readonly Region[] = [],
  ): DescendResult {
    const anchors = alignElements(beforeList, this.beforeText, rawAfterList, this.afterText);
    const afterList = withCommentsAsFrames(beforeList, rawAfterList, anchors);
    const parts: Unit[] = [];
    const frames = [...containerFrames];
    let previous: AnchorPair | undefined;
    for (const next of [...anchors, undefined]) {
      const previousBefore = previous === undefined ? undefined : beforeList[previous.before];
      const previousAfter = previous === undefined ? undefined : afterList[previous.after];
      const nextBefore = next === undefined ? undefined : beforeList[next.before];
      const nextAfter = next === undefined ? undefined : afterList[next.after];
      const gap: Region = {
        beforeStart: previousBefore?.range.end ?? region.beforeStart,
        beforeEnd: nextBefore?.range.start ?? region.beforeEnd,
        afterStart: previousAfter?.range.end ?? region.afterStart,
        afterEnd: nextAfter?.range.start ?? region.afterEnd,
      };
      if (this.textsDiffer(gap)) {
        const deleted = beforeList.slice(
          previous === undefined ? 0 : previous.before + 1,
          next?.before ?? beforeList.length,
        );
        const inserted = afterList.slice(
          previous === undefined ? 0 : previous.after + 1,
          next?.after ?? afterList.length,
        );
        if (deleted.length === 0 && inserted.length === 0) {
          // Comments or blank lines between two members that stay: the container's own text.
          frames.push(gap);
          previous = next;
          if (nextBefore !== undefined && nextAfter !== undefined) this.pushChanged(parts, nextBefore, nextAfter);
          continue;
        }
        parts.push(
          this.segmentUnit(gap, deleted, inserted, container, {
            previous: previousBefore === undefined ? undefined : this.trackedOrThrow(previousBefore),
            next: nextBefore === undefined ? undefined : this.trackedOrThrow(nextBefore),
          }),
        );
      }
      if (nextBefore !== undefined && nextAfter !== undefined) this.pushChanged(parts, nextBefore, nextAfter);
      previous = next;
    }
    mergeMoves(parts, (group) => this.movedUnit(group));
    if (frames.length > 0) parts.unshift(this.frameUnit(container, frames));
    const cost = parts.reduce((sum, part) => sum + (part.candidates[0]?.cost ?? Infinity), 0);
    return { ok: true, candidate: { label: 'descend', cost, parts } };
  }

  /** The unit of an element that stays where it was, when its text changed. */
  private pushChanged(parts: Unit[], before: ElementNode, after: ElementNode): void {
    const region: Region = {
      beforeStart: before.range.start,
      beforeEnd: before.range.end,
      afterStart: after.range.start,
      afterEnd: after.range.end,
    };
    if (this.textsDiffer(region)) parts.push(this.elementUnit(before, after));
  }

  /**
   * A container's own text (or the file's text between top-level elements) changed in `frames`, its members aside:
   * one PATCH_ELEMENT of the container, or of the file, whose pairs change only that text. The apply engine keeps
   * such a patch off the members, so the members' own operations compose with it.
   */
  private frameUnit(container: TrackedElement | undefined, frames: readonly Region[]): Unit {
    const sorted = [...frames].sort((a, b) => a.beforeStart - b.beforeStart);
    const expected = this.withNewTextIn(sorted);
    const owner = this.ownerRange(container);
    const growth = expected.length - this.beforeText.length;
    const oldText = this.beforeText.slice(owner.start, owner.end);
    const newText = expected.slice(owner.start, owner.end + growth);
    const pairs = searchReplacePairs(this.toOperationText(oldText), this.toOperationText(newText));
    const first = sorted[0];
    const last = sorted.at(-1);
    const region: Region = {
      beforeStart: first?.beforeStart ?? owner.start,
      beforeEnd: last?.beforeEnd ?? owner.end,
      afterStart: first?.afterStart ?? owner.start,
      afterEnd: last?.afterEnd ?? owner.end,
      expected,
    };
    const candidates =
      pairs === undefined || pairs.length === 0
        ? []
        : [this.leaf('patch', [{ type: 'PATCH_ELEMENT', target: container, patches: pairs }])];
    const path = container === undefined ? this.tree.file : new PathState(this.tree).pathOf(container);
    return { path, region, candidates };
  }

  /** The old text with the new text of each region (sorted, apart) in its place. */
  private withNewTextIn(regions: readonly Region[]): string {
    let text = '';
    let at = 0;
    for (const region of regions) {
      text += this.beforeText.slice(at, region.beforeStart) + this.afterText.slice(region.afterStart, region.afterEnd);
      at = region.beforeEnd;
    }
    return text + this.beforeText.slice(at);
  }

  /** The range of a container in the old text; the whole text for the file. */
  private ownerRange(container: TrackedElement | undefined): { start: number; end: number } {
    if (container === undefined) return { start: 0, end: this.beforeText.length };
    for (const [node, tracked] of this.tree.byNode) if (tracked === container) return node.range;
    throw new Error('the container is not in the old outline');
  }

  /** Elements deleted and inserted between two unchanged neighbours. */
  private segmentUnit(
    region: Region,
    deleted: readonly ElementNode[],
    inserted: readonly ElementNode[],
    container: TrackedElement | undefined,
    neighbours: { readonly previous: TrackedElement | undefined; readonly next: TrackedElement | undefined },
  ): Unit {
    /**
     * `importOps`: imports deleted and inserted as REMOVE_IMPORT/ADD_IMPORT. `spaced`: each new element says the blank
     * lines around it. `beforeNext`: each goes BEFORE the unchanged element after the segment rather than AFTER the one
     * before it, so text between that one and the new elements (a comment heading a section) stays above them.
     * `contents`: the content of each new element, where it is not the element's own text.
     */
    const build = (
      options: {
        importOps?: boolean;
        spaced?: boolean;
        beforeNext?: boolean;
        contents?: readonly { content: string; blankLines: BlankLinesAround }[];
      } = {},
    ): OpSpec[] => {
      const { importOps = false, spaced = false, beforeNext = false, contents } = options;
      const specs: OpSpec[] = [];
      for (const element of deleted) {
        const target = this.trackedOrThrow(element);
        if (importOps && element.kind === 'import') {
          specs.push({
            type: 'REMOVE_IMPORT',
            content: this.toOperationText(
              this.beforeText.slice(element.declarationRange.start, element.declarationRange.end),
            ),
            removed: target,
          });
        } else {
          specs.push({ type: 'DELETE_ELEMENT', target });
        }
      }
      let previous = beforeNext ? undefined : neighbours.previous;
      for (const [i, element] of inserted.entries()) {
        const created: TrackedElement = { kind: element.kind, name: element.name, parent: container };
        if (importOps && element.kind === 'import') {
          specs.push({ type: 'ADD_IMPORT', content: this.contentOf(element), created });
        } else {
          const given = contents?.[i];
          const content = given?.content ?? this.contentOf(element, true);
          // A directive at the top of the file ('use client') set apart by a blank line is the file's first child,
          // which the apply engine puts above a header comment too; one flush against the next line goes BEFORE it.
          const first =
            !beforeNext &&
            container === undefined &&
            previous === undefined &&
            isDirectiveContent(content) &&
            /^[ \t]*;?[ \t]*\r?\n[ \t]*\r?\n/.test(this.afterText.slice(element.range.end));
          // The apply engine places a created import only beside another import: one that follows a directive
          // created just before it goes BEFORE the import after it instead.
          const besideImport =
            element.kind === 'import' &&
            previous !== undefined &&
            previous.kind !== 'import' &&
            neighbours.next?.kind === 'import';
          const blankLines =
            given?.blankLines ??
            (spaced ? blankLinesAround(this.afterText, element.range.start, element.range.end) : undefined);
          specs.push({
            type: 'CREATE_ELEMENT',
            created,
            previous: besideImport ? undefined : previous,
            next: neighbours.next,
            content,
            ...(first ? { first } : {}),
            ...(blankLines === undefined ? {} : { blankLines }),
          });
        }
        if (!beforeNext) previous = created;
      }
      return specs;
    };
    // The same with the blank lines around each new element given, for an author who spaced them otherwise than the
    // container does elsewhere.
    const candidates: Candidate[] = [this.leaf('structure', build()), this.leaf('structure', build({ spaced: true }))];
    const firstInserted = inserted[0];
    const textAbove =
      firstInserted === undefined ? '' : this.afterText.slice(region.afterStart, firstInserted.range.start).trim();
    if (textAbove !== '' && neighbours.next !== undefined) {
      candidates.push(
        this.leaf('structure', build({ beforeNext: true })),
        this.leaf('structure', build({ beforeNext: true, spaced: true })),
      );
    }
    // Comments between the elements of the segment (commented-out code uncommented, a new section heading): the old
    // ones taken out by a patch of the container's own text, the new ones written in the new elements' content.
    const freeText = this.freeTextVariant(region, deleted, inserted, container);
    if (freeText !== undefined)
      candidates.push(this.leaf('structure', [...freeText.cleanup, ...build({ contents: freeText.contents })]));
    if ([...deleted, ...inserted].some((e) => e.kind === 'import'))
      candidates.push(this.leaf('imports', build({ importOps: true })));
    const renamed = this.renameCandidate(deleted, inserted);
    if (renamed !== undefined) candidates.push(renamed);
    const first = deleted[0] ?? inserted[0];
    const importsOnly = [...deleted, ...inserted].every((e) => e.kind === 'import');
    return {
      path: first?.path ?? this.tree.file,
      region,
      candidates: sortCandidates(candidates),
      ...(importsOnly ? { isImportSegment: true } : {}),
      segment: { deleted, inserted },
    };
  }

  /**
   * For a segment with text between its elements that no element holds (comments, commented-out code): a patch of
   * the container's own text (or the file's) that takes out every such line of the old segment, and the new elements'
   * contents each with the text above it since the element before (the last one also with the text after it), as
   * the new text has them, their blank lines written out. Undefined when neither side has such text, or when there is
   * no new element to carry the new text.
   */
  private freeTextVariant(
    region: Region,
    deleted: readonly ElementNode[],
    inserted: readonly ElementNode[],
    container: TrackedElement | undefined,
  ): { cleanup: OpSpec[]; contents: { content: string; blankLines: BlankLinesAround }[] } | undefined {
    const oldLines = freeTextLines(this.beforeText, region.beforeStart, region.beforeEnd, deleted);
    const newLines = freeTextLines(this.afterText, region.afterStart, region.afterEnd, inserted);
    if ((oldLines.length === 0 && newLines.length === 0) || inserted.length === 0) return undefined;
    const cleanup: OpSpec[] = [];
    if (oldLines.length > 0) {
      const owner = this.ownerRange(container);
      let kept = '';
      let at = owner.start;
      for (const line of oldLines) {
        kept += this.beforeText.slice(at, line.start);
        at = line.end;
      }
      kept += this.beforeText.slice(at, owner.end);
      const pairs = searchReplacePairs(
        this.toOperationText(this.beforeText.slice(owner.start, owner.end)),
        this.toOperationText(kept),
      );
      if (pairs === undefined || pairs.length === 0) return undefined;
      cleanup.push({ type: 'PATCH_ELEMENT', target: container, patches: pairs });
    }
    const contents = inserted.map((element, i) => {
      const previousEnd = i === 0 ? region.afterStart : (inserted[i - 1]?.range.end ?? region.afterStart);
      const last = i === inserted.length - 1;
      // From the first line with text after the element before (its own line aside) to the element's end, or, for
      // the last one, to the end of the text with something on it before the next unchanged element.
      const from = firstTextAfter(this.afterText, previousEnd, element.range.start);
      const to = last ? lastTextBefore(this.afterText, element.range.end, region.afterEnd) : element.range.end;
      const text = this.afterText.slice(from, to);
      const indentation = indentationBefore(this.afterText, from) ?? '';
      const content = this.toOperationText(dedentElementText(text, indentation, this.language.scanCode(text).literals));
      return { content, blankLines: blankLinesAround(this.afterText, from, to) };
    });
    return { cleanup, contents };
  }

  /**
   * Segments of one container between which an element moved (deleted in one, inserted in another under its name):
   * checked alone, the inserted one clashes with the one still standing, so they are planned as one unit, every
   * deletion first. Each variant takes the same variant of every segment (the plain structure, with blank lines...).
   */
  private movedUnit(group: readonly Unit[]): Unit {
    const sorted = [...group].sort((a, b) => a.region.beforeStart - b.region.beforeStart);
    const expected = this.withNewTextIn(sorted.map((unit) => unit.region));
    const leaves = sorted.map((unit) =>
      unit.candidates.filter((c): c is LeafCandidate => c.label === 'structure' || c.label === 'imports'),
    );
    const variants = Math.max(0, ...leaves.map((l) => l.length));
    const candidates: Candidate[] = [];
    for (let v = 0; v < variants; v++) {
      const specs = leaves.flatMap((l) => l[Math.min(v, l.length - 1)]?.specs ?? []);
      const deletion = (spec: OpSpec): boolean => spec.type === 'DELETE_ELEMENT' || spec.type === 'REMOVE_IMPORT';
      candidates.push(this.leaf('structure', [...specs.filter(deletion), ...specs.filter((s) => !deletion(s))]));
    }
    const first = sorted[0];
    const last = sorted.at(-1);
    return {
      path: first?.path ?? this.tree.file,
      region: {
        beforeStart: first?.region.beforeStart ?? 0,
        beforeEnd: last?.region.beforeEnd ?? 0,
        afterStart: first?.region.afterStart ?? 0,
        afterEnd: last?.region.afterEnd ?? 0,
        expected,
      },
      candidates: sortCandidates(candidates),
    };
  }

  /**
   * Elements that stand where they stood, each with its kind kept and its name changed (a renamed method, a test
   * with a new title, an import of another module): each is edited in place, as a rename, instead of being deleted
   * and created again. The apply engine refuses a new name that is taken, and the check by applying catches the rest.
   */
  private renameCandidate(
    deleted: readonly ElementNode[],
    inserted: readonly ElementNode[],
  ): DescendCandidate | undefined {
    if (deleted.length === 0 || deleted.length !== inserted.length) return undefined;
    const parts: Unit[] = [];
    for (const [i, before] of deleted.entries()) {
      const after = inserted[i];
      if (after === undefined || after.kind !== before.kind || before.name === '' || after.name === '')
        return undefined;
      parts.push(this.elementUnit(before, after));
    }
    const cost = parts.reduce((sum, part) => sum + (part.candidates[0]?.cost ?? Infinity), 0);
    return { label: 'descend', cost, parts };
  }

  private leaf(label: LeafCandidate['label'], specs: readonly OpSpec[]): LeafCandidate {
    return { label, specs, cost: this.costOf(specs) };
  }

  /**
   * Tokens of the serialized operations, paths left out: a member's path is longer than its container's, and that
   * must not make replacing a whole class look cheaper than patching the one method that changed.
   */
  private costOf(specs: readonly OpSpec[]): number {
    try {
      const operations = writeOperations(this.tree, specs);
      const paths = operations.reduce((sum, operation) => sum + this.counter.count(operation.path), 0);
      return this.counter.count(serializeOperations(operations)) - paths;
    } catch {
      return Infinity;
    }
  }

  /**
   * The new text of an element as an operation carries it. `withTrailingComment`: a comment after the element on its
   * last line (`type A = 'a' | 'b'; // why`) is outside the element's range but belongs to it when it is created.
   */
  private contentOf(element: ElementNode, withTrailingComment = false): string {
    let end = element.range.end;
    if (withTrailingComment) {
      const lineEnd = this.afterText.indexOf('\n', end);
      const rest = this.afterText.slice(end, lineEnd < 0 ? this.afterText.length : lineEnd).trimEnd();
      const scan = this.language.scanCode(rest);
      // A block comment that goes on over the next lines is not this element's.
      const closed = !rest.trimStart().startsWith('/*') || rest.endsWith('*/');
      if (scan.lastCodeEnd === 0 && scan.comments.length > 0 && closed) end += rest.length;
    }
    const text = this.afterText.slice(element.range.start, end);
    const indentation = indentationBefore(this.afterText, element.range.start) ?? '';
    return this.toOperationText(dedentElementText(text, indentation, this.language.scanCode(text).literals));
  }

  private textsDiffer(region: Region): boolean {
    return (
      region.beforeEnd - region.beforeStart !== region.afterEnd - region.afterStart ||
      this.beforeText.slice(region.beforeStart, region.beforeEnd) !==
        this.afterText.slice(region.afterStart, region.afterEnd)
    );
  }

  private trackedOrThrow(element: ElementNode): TrackedElement {
    const tracked = this.tree.byNode.get(element);
    if (tracked === undefined) throw new Error(`element ${element.path} is not in the old outline`);
    return tracked;
  }
}

function isDirectiveElement(element: ElementNode, text: string): boolean {
  return element.kind === 'statement' && isDirectiveContent(text.slice(element.range.start, element.range.end));
}

/**
 * An element that stays, had no leading comment and now has one (a doc comment written above it, or one that stood
 * apart above it and now joins it): that comment is taken as text of the container before the element, changed by
 * a patch of the container (or the file), not as a change of the element. A comment that stood apart in the old text
 * belonged to the container there, so the patch changes what it changed and the element's own operations, if any,
 * stay small. Only where no element was deleted or inserted right before it: there the comment would be left over
 * between new elements, which no operation writes.
 */
function withCommentsAsFrames(
  beforeList: readonly ElementNode[],
  afterList: readonly ElementNode[],
  anchors: readonly AnchorPair[],
): readonly ElementNode[] {
  let adjusted: ElementNode[] | undefined;
  for (const [i, anchor] of anchors.entries()) {
    const before = beforeList[anchor.before];
    const after = afterList[anchor.after];
    const previous = anchors[i - 1] ?? { before: -1, after: -1 };
    if (before === undefined || after === undefined) continue;
    if (anchor.before !== previous.before + 1 || anchor.after !== previous.after + 1) continue;
    if (before.range.start !== before.declarationRange.start || after.range.start === after.declarationRange.start)
      continue;
    adjusted ??= [...afterList];
    adjusted[anchor.after] = { ...after, range: { start: after.declarationRange.start, end: after.range.end } };
  }
  return adjusted ?? afterList;
}
