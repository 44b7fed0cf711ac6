import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reads a V8 CPU profile (`node --cpu-prof`) into the hot spots a person acts on: functions by self time and by
 * inclusive time, each named by its source file and line, bundled frames mapped back through the bundle's source map.
 */

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface HotSpot {
  /** `functionName (file:line)`, file relative to the repository, bundled code mapped to its source. */
  readonly where: string;
  readonly ms: number;
  readonly percent: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  readonly bySelfTime: readonly HotSpot[];
  /** Time spent in a function and everything it called; Scalpel's own functions only, where the cause is found. */
  readonly byInclusiveTime: readonly HotSpot[];
  /**
   * Time by call path through Scalpel's own functions (outermost first, library frames left out): tells which call
   * of a shared function, such as the parse, the time goes to.
   */
  readonly byScalpelCallPath: readonly HotSpot[];
}

function isScalpelFrame(name: string): boolean {
  return name.includes('(src/');
}

const IGNORED_FRAMES = new Set(['(root)', '(program)', '(idle)', '(garbage collector)']);

export function summarizeCpuProfile(profilePath: string, repoRoot: string, limit = 12): ProfileSummary {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as CpuProfile;
  const sourceMaps = new Map<string, SourceMap | undefined>();
  const nameOf = new Map<number, string>();
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) {
    nameOf.set(node.id, describeFrame(node, repoRoot, sourceMaps));
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  }

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const callPaths = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((nodeId, index) => {
    const us = profile.timeDeltas[index + 1] ?? 0;
    totalUs += us;
    const own = nameOf.get(nodeId) ?? '?';
    self.set(own, (self.get(own) ?? 0) + us);
    const seen = new Set<string>();
    const ownFrames: string[] = [];
    for (let id: number | undefined = nodeId; id !== undefined; id = parentOf.get(id)) {
      const name = nameOf.get(id) ?? '?';
      if (isScalpelFrame(name) && ownFrames[0] !== name) ownFrames.unshift(name);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
    const callPath = ownFrames.map((frame) => frame.replace(/ \(src\/.*$/, '')).join(' > ');
    if (callPath !== '') callPaths.set(callPath, (callPaths.get(callPath) ?? 0) + us);
  });

  const top = (times: Map<string, number>, keep: (name: string) => boolean): HotSpot[] =>
    [...times.entries()]
      .filter(([name]) => keep(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([where, us]) => ({ where, ms: us / 1000, percent: (100 * us) / Math.max(totalUs, 1) }));
  const isFrame = (name: string): boolean => !IGNORED_FRAMES.has(name.split(' ')[0] ?? '');
  return {
    totalMs: totalUs / 1000,
    bySelfTime: top(self, isFrame),
    byInclusiveTime: top(inclusive, isScalpelFrame),
    byScalpelCallPath: top(callPaths, () => true),
  };
}

function describeFrame(node: ProfileNode, repoRoot: string, sourceMaps: Map<string, SourceMap | undefined>): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const name = functionName === '' ? '(anonymous)' : functionName;
  if (url === '' || !url.startsWith('file://')) return url === '' ? name : `${name} (${url})`;
  const path = fileURLToPath(url);
  const map = sourceMapFor(path, sourceMaps);
  const entry = map?.findEntry(lineNumber, columnNumber);
  if (entry !== undefined && 'originalSource' in entry && entry.originalSource !== undefined) {
    const source = entry.originalSource.startsWith('file://')
      ? fileURLToPath(entry.originalSource)
      : entry.originalSource;
    return `${name} (${normalizeSource(source, path, repoRoot)}:${entry.originalLine + 1})`;
  }
  return `${name} (${relative(repoRoot, path)}:${lineNumber + 1})`;
}

function sourceMapFor(path: string, cache: Map<string, SourceMap | undefined>): SourceMap | undefined {
  if (cache.has(path)) return cache.get(path);
  let map: SourceMap | undefined;
  // Only the project's own bundles are mapped; node_modules frames are named by their own file.
  if (!path.includes('node_modules') && existsSync(`${path}.map`)) {
    try {
      map = new SourceMap(
        JSON.parse(readFileSync(`${path}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0],
      );
    } catch {
      map = undefined;
    }
  }
  cache.set(path, map);
  return map;
}

/** Source paths in esbuild's maps are relative to the bundle's folder. */
function normalizeSource(source: string, bundlePath: string, repoRoot: string): string {
  const absolute = source.startsWith('/') ? source : `${bundlePath.slice(0, bundlePath.lastIndexOf('/'))}/${source}`;
  const rel = relative(repoRoot, absolute);
  return rel.startsWith('..') ? source : rel;
}
