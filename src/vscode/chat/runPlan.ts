import type { ElementNode } from '../../core/elements/element';
import type { RequestMetrics } from '../../core/llm/metrics';
import type { ChatProvider, TokenUsage } from '../../core/llm/provider';
import type { ScalpelEngine } from '../engineLoader';
import type { FocusFile } from './chatFocus';

/**
 * The planning phase on its own: the model sees the outline of each file and names the elements it needs, with
 * the same prompts `runEdit` plans with. Nothing is edited.
 */

export interface PlannedElement {
  readonly file: FocusFile;
  /** The canonical path the model's path resolved to. */
  readonly element: ElementNode;
}

export interface PlanOutcome {
  readonly elements: readonly PlannedElement[];
  /** Files the model wants to read whole. */
  readonly wholeFiles: readonly FocusFile[];
  /** Paths that name nothing in the files of the request, with the reason. */
  readonly unresolved: readonly { readonly path: string; readonly reason: string }[];
  readonly usage: TokenUsage;
  readonly model: string;
  /** Tokens of the files sent whole, for comparison with the outline the model saw. */
  readonly wholeFileTokens: number;
  /** The request for the metrics log (a plan has no whole-file counterpart: 0, as the pipeline records it). */
  readonly metrics: RequestMetrics;
}

export async function runPlan(
  engine: ScalpelEngine,
  provider: ChatProvider,
  files: readonly FocusFile[],
  instruction: string,
  options: {
    readonly signal?: AbortSignal;
    readonly maxOutputTokens?: number;
    readonly encoding?: 'o200k_base' | 'cl100k_base';
  },
): Promise<PlanOutcome> {
  const outlines = files.map((file) =>
    file.outline !== undefined && file.outline.syntaxErrors.length === 0
      ? engine.planningOutline(file.outline)
      : `File ${file.path} (${file.lineCount} lines, read whole)`,
  );
  const started = Date.now();
  const response = await provider.chat({
    messages: [
      { role: 'system', content: engine.PLANNING_SYSTEM_PROMPT },
      { role: 'user', content: engine.planningUserMessage(outlines, instruction) },
    ],
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
  });

  const elements: PlannedElement[] = [];
  const wholeFiles: FocusFile[] = [];
  const unresolved: { path: string; reason: string }[] = [];
  for (const path of engine.parsePlan(response.text)) {
    const bare = path.replace(/^file:/i, '');
    const file = files.find((f) => bare === f.path || bare.startsWith(`${f.path}/`));
    if (file === undefined) {
      unresolved.push({ path, reason: 'not a file of this request' });
    } else if (bare === file.path || file.outline === undefined) {
      if (!wholeFiles.includes(file)) wholeFiles.push(file);
    } else {
      const resolved = engine.resolveElementPath(file.outline, bare);
      if (!resolved.ok) unresolved.push({ path, reason: resolved.message });
      else if (!elements.some((e) => e.element.path === resolved.element.path))
        elements.push({ file, element: resolved.element });
    }
  }
  const counter = engine.createTokenCounter(options.encoding);
  return {
    elements,
    wholeFiles,
    unresolved,
    usage: response.usage,
    model: response.model,
    wholeFileTokens: files.reduce((sum, f) => sum + counter.count(f.text), 0),
    metrics: {
      time: new Date(started).toISOString(),
      command: 'chat.plan',
      phase: 'plan',
      provider: provider.id,
      model: response.model,
      inputTokens: response.usage.inputTokens,
      outputTokens: response.usage.outputTokens,
      usageSource: response.usage.source,
      wholeFileInputTokens: 0,
      operations: {},
      ok: true,
      durationMs: Date.now() - started,
    },
  };
}
