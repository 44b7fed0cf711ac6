import type { Operation } from '../operation';
import type { Candidate, CandidateLabel, DiffFallback, Region, Unit } from './diffUnits';
import { writeOperations, type OpSpec } from './opSpecs';
import type { TrackedTree } from './pathTracker';

/** Applies operations to the old text; undefined when the engine refuses them. */
export type ApplyToText = (operations: readonly Operation[]) => string | undefined;

export interface Resolution {
  readonly specs: readonly OpSpec[];
  readonly fallbacks: readonly DiffFallback[];
}

/**
 * Chooses each unit's operations by applying them: a unit's candidate counts only when the apply engine turns the old
 * file, with just that unit's change, into exactly the new text of its region; what fails falls back to the next
 * candidate, and the fallbacks taken are reported.
 */
export class UnitResolver {
  /** Preferred operations by unit, so each unit's tree is walked once. */
  private readonly preferredCache = new Map<Unit, readonly OpSpec[]>();
  applyCount = 0;

  constructor(
    private readonly beforeText: string,
    private readonly afterText: string,
    private readonly tree: TrackedTree,
    private readonly apply: ApplyToText,
  ) {}

  resolve(unit: Unit): Resolution | undefined {
    const failed: CandidateLabel[] = [];
    for (const candidate of unit.candidates) {
      const resolution = this.resolveCandidate(unit, candidate);
      if (resolution !== undefined) {
        const fallback = this.fallbackFor(unit, candidate, failed);
        return {
          specs: resolution.specs,
          fallbacks: fallback === undefined ? resolution.fallbacks : [fallback, ...resolution.fallbacks],
        };
      }
      failed.push(candidate.label);
    }
    return undefined;
  }

  private fallbackFor(unit: Unit, chosen: Candidate, failed: readonly CandidateLabel[]): DiffFallback | undefined {
    if (chosen.label === 'replace-file') {
      const reason =
        unit.notDescended ??
        (failed.includes('descend') ? 'element operations did not reproduce the text' : 'cheapest');
      return reason === 'cheapest' ? undefined : { kind: 'file', path: unit.path, reason };
    }
    if (chosen.label === 'descend') return undefined;
    if (unit.isImportBlock === true) {
      return failed.length === 0 || chosen.label === 'structure'
        ? undefined
        : { kind: 'element', path: unit.path, reason: 'imports removed and added back in order' };
    }
    // ADD_IMPORT puts a new declaration next to its module's or after the last import; one added elsewhere in the
    // list is CREATE_ELEMENT beside the import it follows, the import operation that keeps the position.
    if (unit.isImportSegment === true && chosen.label === 'structure' && failed.every((label) => label === 'imports'))
      return undefined;
    // The same structure with the blank lines around the new elements written out is no bigger operation.
    if (chosen.label === 'structure' && failed.every((label) => label === 'structure')) return undefined;
    if (unit.notDescended !== undefined) return { kind: 'container', path: unit.path, reason: unit.notDescended };
    if (failed.includes('descend'))
      return { kind: 'container', path: unit.path, reason: 'member operations did not reproduce the text' };
    if (failed.length > 0)
      return { kind: 'element', path: unit.path, reason: `${failed.join(', ')} did not reproduce the text` };
    return undefined;
  }

  private resolveCandidate(unit: Unit, candidate: Candidate): Resolution | undefined {
    if (candidate.label !== 'descend') {
      return this.reproduces(unit.region, candidate.specs) ? { specs: candidate.specs, fallbacks: [] } : undefined;
    }
    // Most plans are right as first drawn up: one apply checks them all before any part is checked on its own.
    const preferred = candidate.parts.flatMap((part) => this.preferredSpecs(part));
    if (this.reproduces(unit.region, preferred)) {
      return { specs: preferred, fallbacks: candidate.parts.flatMap((part) => this.preferredFallbacks(part)) };
    }
    const specs: OpSpec[] = [];
    const fallbacks: DiffFallback[] = [];
    for (const part of candidate.parts) {
      const resolution = this.resolve(part);
      if (resolution === undefined) return undefined;
      specs.push(...resolution.specs);
      fallbacks.push(...resolution.fallbacks);
    }
    return this.reproduces(unit.region, specs) ? { specs, fallbacks } : undefined;
  }

  preferredSpecs(unit: Unit): readonly OpSpec[] {
    const cached = this.preferredCache.get(unit);
    if (cached !== undefined) return cached;
    const best = unit.candidates[0];
    const specs =
      best === undefined
        ? []
        : best.label === 'descend'
          ? best.parts.flatMap((p) => this.preferredSpecs(p))
          : best.specs;
    this.preferredCache.set(unit, specs);
    return specs;
  }

  /** The fallbacks the preferred plan of a unit makes: containers that could not be diffed member by member. */
  private preferredFallbacks(unit: Unit): DiffFallback[] {
    const best = unit.candidates[0];
    if (best === undefined) return [];
    if (best.label === 'descend') return best.parts.flatMap((part) => this.preferredFallbacks(part));
    const fallback = this.fallbackFor(unit, best, []);
    return fallback === undefined ? [] : [fallback];
  }

  /** Whether applying the specs to the old file changes exactly this region into its new text. */
  private reproduces(region: Region, specs: readonly OpSpec[]): boolean {
    const expected =
      region.expected ??
      this.beforeText.slice(0, region.beforeStart) +
        this.afterText.slice(region.afterStart, region.afterEnd) +
        this.beforeText.slice(region.beforeEnd);
    let operations: Operation[];
    try {
      operations = writeOperations(this.tree, specs);
    } catch {
      return false;
    }
    this.applyCount += 1;
    return this.apply(operations) === expected;
  }
}
