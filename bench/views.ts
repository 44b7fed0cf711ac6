import { readFileSync } from 'node:fs';
import { buildContext } from '../src/core/context/buildContext';
import { createTokenCounter, type TokenCounter } from '../src/core/context/tokens';
import type { ElementNode, FileOutline } from '../src/core/elements/element';
import { walkElements } from '../src/core/elements/resolve';
import { sectionMarksOf } from '../src/core/elements/sectionMarks';
import { loadAllLanguages, supportedLanguages } from '../src/core/language/languages';
import type { LanguageSupport } from '../src/core/language/languageSupport';
import { DEFAULT_PLANNING_OUTLINE_BUDGET, planningOutline } from '../src/core/llm/prompts';
import { applyOperations } from '../src/core/ops/apply';
import { createRandom } from '../test/unit/corpus/roundTrip';
import { loadCorpus } from '../test/support/corpus';
import { loadLanguageCorpus } from '../test/support/languageCorpus';
import { whitespaceCase } from '../test/support/whitespacePatchCases';
import { type BenchOutput, type BenchRun, runBenchSection } from './benchSection';
import { middleElement } from './speed';

/**
 * `npm run bench:views` (issue 26, items 5, 6 and 8), per language on its real-code corpus:
 *
 * - marks: the files with section comments between elements, the marks the views show, Python's module and class
 *   docstrings marked, and what the marks cost in the focused context of each file's middle element (the tokens of
 *   the mark lines over the context's);
 * - macro calls (Rust): the calls among items named only by an ordinal, with the names before issue 26 (the macro
 *   alone, which is what cutting a name at its space gives) and now;
 * - planning: the outlines (default budget) that show a one-child container's member as one label
 *   (`members: class[X]`), which planning must never do, and the files it concerns;
 * - PATCH whitespace: cases of test/support/whitespacePatchCases.ts, applied exactly as meant, refused as ambiguous,
 *   refused otherwise, or wrong (another text: must be 0); seed 26 unless `--seed N`.
 */

const FILES_PER_LANGUAGE = 200;

interface ViewsBench {
  readonly language: string;
  readonly files: number;
  readonly marks: {
    readonly filesWithSections: number;
    readonly sections: number;
    readonly docstrings: number;
    readonly contextFiles: number;
    readonly markTokens: number;
    readonly contextTokens: number;
  };
  readonly macroCalls: { readonly total: number; readonly ordinalOnlyBefore: number; readonly ordinalOnlyNow: number };
  readonly planning: {
    readonly oneChildContainers: number;
    /** Files with one, whose whole outline is over the budget: before issue 26 the container folded first. */
    readonly overBudget: number;
    readonly hiddenBehindOneLabel: number;
  };
  readonly patches: {
    readonly cases: number;
    readonly applied: number;
    readonly ambiguous: number;
    readonly refused: number;
    readonly wrong: number;
  };
}

function filesOf(language: LanguageSupport): { path: string; text: string }[] {
  if (language.id === 'typescript')
    return loadCorpus()
      .corpusFiles()
      .map((file) => ({ path: `${file.pkg}/${file.relPath}`, text: readFileSync(file.absPath, 'utf8') }));
  return loadLanguageCorpus(language.id)
    .files()
    .map((file) => ({
      path: `${file.source.split(' ')[0] ?? ''}/${file.relPath}`,
      text: readFileSync(file.absPath, 'utf8'),
    }));
}

/** Every container of an outline, the file (undefined) first. */
function containersOf(outline: FileOutline): (ElementNode | undefined)[] {
  return [undefined, ...[...walkElements(outline.elements)].filter((e) => e.children.length > 0)];
}

/** A macro call among items: a `statement` whose name is `macro!` or `macro! name`. */
function isMacroCall(element: ElementNode): boolean {
  return element.kind === 'statement' && /^[\w:]+!( |$)/.test(element.name);
}

/** How many of `names` (one container's siblings) would carry an ordinal: those that share their name. */
function ordinalOnly(names: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return names.filter((name) => (counts.get(name) ?? 0) > 1).length;
}

function measure(language: LanguageSupport, counter: TokenCounter, seed: number): ViewsBench {
  const files = filesOf(language);
  const marks = { filesWithSections: 0, sections: 0, docstrings: 0, contextFiles: 0, markTokens: 0, contextTokens: 0 };
  const macroCalls = { total: 0, ordinalOnlyBefore: 0, ordinalOnlyNow: 0 };
  const planning = { oneChildContainers: 0, overBudget: 0, hiddenBehindOneLabel: 0 };
  const patches = { cases: 0, applied: 0, ambiguous: 0, refused: 0, wrong: 0 };
  const random = createRandom(seed ^ language.id.length);
  const step = Math.max(1, Math.floor(files.length / FILES_PER_LANGUAGE));
  for (const [index, file] of files.entries()) {
    const outline = language.outline(file.path, file.text);
    if (outline.syntaxErrors.length > 0) continue;
    let sections = 0;
    let oneChild = false;
    for (const container of containersOf(outline)) {
      const level = sectionMarksOf(outline, container);
      for (const list of level.before.values()) sections += list.length;
      sections += level.after.length;
      if (level.docstring !== undefined) marks.docstrings += 1;
      const calls = (container === undefined ? outline.elements : container.children).filter(isMacroCall);
      macroCalls.total += calls.length;
      macroCalls.ordinalOnlyBefore += ordinalOnly(calls.map((c) => c.name.split(' ')[0] ?? c.name));
      macroCalls.ordinalOnlyNow += ordinalOnly(calls.map((c) => c.name));
      if (
        container !== undefined &&
        container.children.length === 1 &&
        (container.children[0]?.children.length ?? 0) > 0
      ) {
        planning.oneChildContainers += 1;
        oneChild = true;
      }
    }
    marks.sections += sections;
    if (sections > 0) marks.filesWithSections += 1;
    if (outline.lineCount >= 100 && outline.elements.length > 0) {
      const context = buildContext([{ outline, focus: [middleElement(outline)] }], counter);
      const markLines = context.text.split('\n').filter((line) => /^\s*(?:\/\/|#) § /.test(line));
      marks.contextFiles += 1;
      marks.contextTokens += context.tokens;
      marks.markTokens += markLines.reduce((sum, line) => sum + counter.count(`${line}\n`), 0);
    }
    const planned = planningOutline(outline, { counter });
    const whole = planningOutline(outline, { counter, budget: Number.POSITIVE_INFINITY });
    if (oneChild && counter.count(whole) > DEFAULT_PLANNING_OUTLINE_BUDGET) planning.overBudget += 1;
    const labels = [...planned.matchAll(/^\s+members: (\S+)$/gm)].map((m) => m[1] ?? '');
    if (labels.some((label) => /^(?:class|namespace|struct|interface|trait|impl|enum|record)\[/.test(label)))
      planning.hiddenBehindOneLabel += 1;
    if (language.id === 'typescript' || index % step !== 0) continue;
    const item = whitespaceCase(file.path, file.text, random);
    if (item === undefined) continue;
    const read = (p: string): string | undefined => (p === file.path ? file.text : undefined);
    if (!applyOperations({ read }, [{ type: 'PATCH_ELEMENT', path: item.element, patches: [item.exact] }]).ok) continue;
    patches.cases += 1;
    const result = applyOperations({ read }, [
      { type: 'PATCH_ELEMENT', path: item.element, patches: [{ search: item.search, replace: item.replace }] },
    ]);
    if (result.ok) {
      if (result.changes[0]?.after === item.expected) patches.applied += 1;
      else patches.wrong += 1;
    } else if (/once whitespace is ignored/.test(result.results[0]?.message ?? '')) patches.ambiguous += 1;
    else patches.refused += 1;
  }
  return { language: language.id, files: files.length, marks, macroCalls, planning, patches };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

function viewsMarkdown(results: readonly ViewsBench[], seed: number): string {
  const lines = [
    '# Views bench (issue 26: what steers placement, planning, PATCH whitespace)',
    '',
    'Written by `npm run bench:views` (bench/views.ts) on the real-code corpora of docs/corpus.md.',
    '',
    '**Marks**: files with section comments standing between elements, the marks (`§`) the views show for them, Python',
    "module and class docstrings marked, and the marks' share of the focused context of each file's middle element",
    '(files of 100 lines or more).',
    '',
    '| language | files | files with sections | section marks | docstring marks | context files | mark tokens / context tokens |',
    '| --- | --: | --: | --: | --: | --: | --: |',
  ];
  for (const r of results)
    lines.push(
      `| ${r.language} | ${r.files} | ${r.marks.filesWithSections} | ${r.marks.sections} | ${r.marks.docstrings} | ${r.marks.contextFiles} | ${percent(r.marks.markTokens, r.marks.contextTokens)} |`,
    );
  lines.push(
    '',
    '**Macro calls** among items named only by an ordinal (`statement[test_lit!]#12`): before issue 26 (named by the macro',
    'alone) and now (by their first identifier argument).',
    '',
    '| language | macro calls | ordinal only before | ordinal only now |',
    '| --- | --: | --: | --: |',
  );
  for (const r of results)
    if (r.macroCalls.total > 0)
      lines.push(
        `| ${r.language} | ${r.macroCalls.total} | ${r.macroCalls.ordinalOnlyBefore} (${percent(r.macroCalls.ordinalOnlyBefore, r.macroCalls.total)}) | ${r.macroCalls.ordinalOnlyNow} (${percent(r.macroCalls.ordinalOnlyNow, r.macroCalls.total)}) |`,
      );
  lines.push(
    '',
    '**Planning** (default outline budget): containers whose one member is a container; files holding one whose whole',
    'outline is over the budget (they fold; before issue 26 the largest container folded first, and in a C# file that is',
    'its block namespace, so it reached the model as `members: class[X]`); planning outlines that now show such a',
    'member as one label (must be 0).',
    '',
    '| language | one-child containers | their files over the budget | outlines hiding a container behind one label |',
    '| --- | --: | --: | --: |',
  );
  for (const r of results)
    lines.push(
      `| ${r.language} | ${r.planning.oneChildContainers} | ${r.planning.overBudget} | ${r.planning.hiddenBehindOneLabel} |`,
    );
  lines.push(
    '',
    `**PATCH whitespace** (seed ${seed}): a SEARCH of 2 to 4 real lines with its whitespace changed as models change it`,
    '(spaces for tabs and back, half the indentation, trailing spaces, alignment collapsed), renaming one word; cases',
    'whose exact form applies. Applied means the file with exactly that word renamed; wrong means any other text.',
    '',
    '| language | cases | applied | refused as ambiguous | refused otherwise | wrong |',
    '| --- | --: | --: | --: | --: | --: |',
  );
  for (const r of results)
    if (r.patches.cases > 0)
      lines.push(
        `| ${r.language} | ${r.patches.cases} | ${r.patches.applied} (${percent(r.patches.applied, r.patches.cases)}) | ${r.patches.ambiguous} | ${r.patches.refused} | ${r.patches.wrong} |`,
      );
  return `${lines.join('\n')}\n`;
}

async function measureViews({ log, option }: BenchRun): Promise<BenchOutput> {
  await loadAllLanguages();
  const counter = createTokenCounter();
  const seed = option('--seed') ?? 26;
  const results: ViewsBench[] = [];
  for (const language of supportedLanguages()) {
    const started = Date.now();
    results.push(measure(language, counter, seed));
    log(`${language.id} measured in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  return { markdown: viewsMarkdown(results, seed), json: results };
}

if (require.main === module) {
  runBenchSection({
    label: 'bench:views',
    markdownFile: 'results-views.md',
    jsonFile: 'results-views.json',
    measure: measureViews,
  });
}
