import { createTokenCounter } from '../src/core/context/tokens';
import { createSymbolFinder } from '../src/core/edit/findSymbol';
import type { ElementNode } from '../src/core/elements/element';
import { walkElements } from '../src/core/elements/resolve';
import { CodeGraph } from '../src/core/graph/codeGraph';
import { contextReferences } from '../src/core/graph/contextReferences';
import { ReferenceFinder } from '../src/core/graph/references';
import { hashText } from '../src/core/graph/semantics';
import { nodeSourceFileSystem } from '../src/core/graph/sourceFiles';
import { languageFor, loadAllLanguages } from '../src/core/language/languages';
import { wordOffsets } from '../src/core/language/treeSitter/treeSitterReferences';
import { filesMatchingSync, searchText } from '../src/core/search/textSearch';
import { ripgrepPath } from '../src/core/search/ripgrep';
import { loadLanguageCorpus, type LanguageCorpusSource } from '../test/support/languageCorpus';
import { runBenchSection, type SectionMarkers } from './benchSection';
import { median } from './stats';
import { medianRatio, timeInterleaved } from './timing';

/**
 * `npm run bench:references`: the truth of what Scalpel says about uses in Python, Go, Rust, Java and C# (issue 26),
 * on the real code of the language corpora (docs/corpus.md).
 *
 * The held-in set: per language, the elements a rename, a new parameter or a deletion would touch (functions and
 * methods, some types), drawn in a fixed order (by the hash of their path) among those whose name no other element of
 * their project declares and that are used in another file. For such a name a plain name search is the answer the
 * issue holds references to when no toolchain is installed: every occurrence of the name as a whole word (ripgrep),
 * outside comments and strings (the language's own lexical scan, not the tree-sitter parse the references use),
 * outside import declarations and the declaration itself.
 *
 * Per element: reference recall and precision against it, the share found only "by name", FIND from a file that uses
 * it (the definition found, the uses counted, never "not found" or "0 uses" while the name search has uses), the
 * focused context's appendix (never "No uses" while there are uses outside the element), and the time of a reference
 * search against the bare name search of the same files, timed in the same rounds.
 */

const LANGUAGES = ['python', 'go', 'rust', 'java', 'csharp'] as const;
const TARGETS_PER_LANGUAGE = 8;
const MIN_NAME_LENGTH = 6;
const MAX_TRUTH_SITES = 60;
const CALLABLE = new Set(['function', 'method']);
const TYPES = new Set(['class', 'struct', 'interface', 'trait', 'record', 'enum']);
const MAX_TYPES_PER_LANGUAGE = 2;
const TIMING_RUNS = 5;

export const REFERENCE_TRUTH_SECTION: SectionMarkers = {
  start: '<!-- reference truth: start (npm run bench:references) -->',
  end: '<!-- reference truth: end -->',
};

interface TargetResult {
  readonly language: string;
  readonly source: string;
  readonly path: string;
  readonly kind: string;
  readonly truth: number;
  readonly found: number;
  readonly matched: number;
  readonly byName: number;
  readonly recall: number;
  readonly precision: number;
  readonly missed: readonly string[];
  readonly extra: readonly string[];
  readonly find: { readonly answer: string; readonly correct: boolean; readonly contradicts: boolean };
  /** Undefined when the context does not look the element up (a type). */
  readonly context?: { readonly text: string; readonly contradicts: boolean };
  readonly referencesMs: number;
  readonly nameSearchMs: number;
  readonly ratio: number;
}

interface Project {
  readonly language: string;
  readonly source: LanguageCorpusSource;
  readonly graph: CodeGraph;
  readonly finder: ReferenceFinder;
  readonly files: readonly string[];
}

function projectOf(source: LanguageCorpusSource, language: string): Project {
  const graph = new CodeGraph(nodeSourceFileSystem(source.dir));
  graph.imports.refresh();
  const files = graph.imports.files().filter((file) => languageFor(file)?.id === language);
  return { language, source, graph, finder: new ReferenceFinder(graph), files };
}

/** The occurrences of the name a plain name search finds in code: `file:line:column` keys. */
async function nameSearchTruth(
  project: Project,
  target: { file: string; element: ElementNode; name: string },
): Promise<Set<string>> {
  const { graph } = project;
  const result = await searchText(
    { text: target.name, mode: 'identifier' },
    { root: project.source.dir, files: project.files },
    { maxHits: 100_000 },
  );
  const truth = new Set<string>();
  const scans = new Map<string, { code: (offset: number) => boolean; starts: number[]; imports: ElementNode[] }>();
  const declaringText = graph.textOf(target.file) ?? '';
  const { start, end } = target.element.declarationRange;
  const own = (wordOffsets(declaringText.slice(start, end), target.name)[0] ?? -1) + start;
  for (const hit of result.hits) {
    let scan = scans.get(hit.file);
    if (scan === undefined) {
      const text = graph.textOf(hit.file) ?? '';
      const lexical = languageFor(hit.file)?.scanCode(text);
      const covered = [...(lexical?.comments ?? []), ...(lexical?.literals ?? [])];
      const starts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      const imports = [...walkElements(graph.outlineOf(hit.file, text).elements)].filter((e) => e.kind === 'import');
      scan = { code: (offset) => !covered.some((r) => offset >= r.start && offset < r.end), starts, imports };
      scans.set(hit.file, scan);
    }
    const offset = (scan.starts[hit.line - 1] ?? 0) + hit.column - 1;
    if (!scan.code(offset)) continue;
    if (scan.imports.some((e) => offset >= e.range.start && offset < e.range.end)) continue;
    // An import the outline does not hold (inside `if __name__ == "__main__":`, in a function) names without using.
    if (IMPORT_LINE[project.language]?.test(hit.lineText) === true) continue;
    if (hit.file === target.file && offset === own) continue;
    truth.add(`${hit.file}:${hit.line}:${hit.column}`);
  }
  return truth;
}

interface Candidate {
  readonly project: Project;
  readonly file: string;
  readonly element: ElementNode;
  readonly name: string;
}

/** Import statements, by their line (the outline holds only the file's top-level ones). */
const IMPORT_LINE: Readonly<Record<string, RegExp>> = {
  python: /^\s*(?:from\s+\S+\s+)?import\s/,
  rust: /^\s*(?:pub(?:\([^)]*\))?\s+)?use\s/,
};

/**
 * Declarations the outline does not hold (a class inside `if __name__ == "__main__":`, a local `x := func...` in
 * Go, a `let` in Rust): a name declared there too is not one thing, and a name search is no answer for it.
 */
const DECLARED: Readonly<Record<string, (name: string) => RegExp>> = {
  python: (name) => new RegExp(`^\\s*(?:(?:async\\s+)?def|class)\\s+${name}\\b|^\\s*${name}\\s*(?::[^=]*)?=[^=]`, 'gm'),
  go: (name) => new RegExp(`\\bfunc\\s+(?:\\([^)]*\\)\\s*)?${name}\\b|\\btype\\s+${name}\\b|\\b${name}\\s*:=`, 'g'),
  rust: (name) =>
    new RegExp(
      `\\b(?:fn|struct|enum|trait|type|const|static|mod|union)\\s+${name}\\b|\\blet\\s+(?:mut\\s+)?${name}\\b`,
      'g',
    ),
};

/**
 * Elements whose name (as the outline has it and as code writes it) no other element of the project declares, nor
 * any declaration the outline leaves out, in the fixed order of their path's hash.
 */
function candidatesOf(project: Project, language: string): Candidate[] {
  const { graph } = project;
  const byName = new Map<string, number>();
  const elements: Array<{ file: string; element: ElementNode; name: string | undefined }> = [];
  const texts: string[] = [];
  for (const file of project.files) {
    const text = graph.textOf(file);
    if (text === undefined) continue;
    texts.push(text);
    const search = graph.referencesFor(file);
    for (const element of walkElements(graph.outlineOf(file, text).elements)) {
      const name = search?.searchName === undefined ? element.name : search.searchName(element);
      for (const key of new Set([element.name, name ?? ''])) byName.set(key, (byName.get(key) ?? 0) + 1);
      elements.push({ file, element, name });
    }
  }
  const declared = DECLARED[language];
  const found: Candidate[] = [];
  for (const { file, element, name } of elements) {
    if (!CALLABLE.has(element.kind) && !TYPES.has(element.kind)) continue;
    if (name === undefined || name.length < MIN_NAME_LENGTH || byName.get(name) !== 1) continue;
    if (name !== element.name && byName.get(element.name) !== 1) continue;
    if (declared !== undefined) {
      const pattern = declared(name);
      const count = texts.reduce(
        (sum, text) => sum + (text.includes(name) ? (text.match(pattern)?.length ?? 0) : 0),
        0,
      );
      if (count > 1) continue;
    }
    found.push({ project, file, element, name });
  }
  return found.sort((a, b) => (hashText(a.element.path) < hashText(b.element.path) ? -1 : 1));
}

function keyOf(site: { file: string; line: number; column: number }): string {
  return `${site.file}:${site.line}:${site.column}`;
}

async function measureTarget(language: string, candidate: Candidate, truth: Set<string>): Promise<TargetResult> {
  const { project, file, element, name } = candidate;
  const counter = createTokenCounter();
  const references = project.finder.referencesOf(file, element.path, { maxFiles: 100_000 });
  const found = new Set(references.sites.map(keyOf));
  const matched = [...found].filter((key) => truth.has(key)).length;
  const usingFile = [...truth].map((key) => key.split(':')[0] ?? '').find((f) => f !== file) ?? file;
  const answer = await createSymbolFinder({
    counter,
    requestFiles: [usingFile],
    snapshot: { read: () => undefined },
    graph: project.graph,
  }).find(name);
  const firstLine = answer.split('\n')[0] ?? '';
  const definedHere = answer.includes(`- defined: ${element.path}  `);
  const uses = Number(/(\d+) uses?\b/.exec(firstLine)?.[1] ?? 'NaN');
  const findContradicts = truth.size > 0 && (/not found/.test(firstLine) || uses === 0);
  const findCorrect = definedHere && !findContradicts && (truth.size === 0 || uses > 0);
  let context: TargetResult['context'];
  if (CALLABLE.has(element.kind)) {
    const text = project.graph.textOf(file) ?? '';
    const outline = project.graph.outlineOf(file, text);
    const appendix =
      contextReferences(project.finder, [{ outline, focus: [element.path] }], counter).appendices.get(file) ?? '';
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    const outside = [...truth].some((key) => {
      const [siteFile = '', line = '0', column = '0'] = key.split(':');
      if (siteFile !== file) return true;
      const offset = (starts[Number(line) - 1] ?? 0) + Number(column) - 1;
      return offset < element.range.start || offset > element.range.end;
    });
    context = { text: appendix.split('\n')[0] ?? '', contradicts: outside && /^No (uses|references)\b/.test(appendix) };
  }
  const timings = timeInterleaved(
    {
      references: () => project.finder.referencesOf(file, element.path, { maxFiles: 100_000 }),
      nameSearch: () =>
        filesMatchingSync({ text: name, mode: 'identifier' }, { root: project.source.dir, files: project.files }),
    },
    TIMING_RUNS,
    1,
  );
  return {
    language,
    source: `${project.source.name} ${project.source.version}`,
    path: element.path,
    kind: element.kind,
    truth: truth.size,
    found: found.size,
    matched,
    byName: references.sites.filter((s) => s.byName === true).length,
    recall: truth.size === 0 ? 1 : matched / truth.size,
    precision: found.size === 0 ? 1 : matched / found.size,
    missed: [...truth].filter((key) => !found.has(key)),
    extra: [...found].filter((key) => !truth.has(key)),
    find: { answer: firstLine, correct: findCorrect, contradicts: findContradicts },
    ...(context === undefined ? {} : { context }),
    referencesMs: median(timings.cpu['references'] ?? []),
    nameSearchMs: median(timings.wall['nameSearch'] ?? []),
    ratio: medianRatio(timings.wall['references'] ?? [], timings.wall['nameSearch'] ?? []),
  };
}

async function measureLanguage(language: string, log: (message: string) => void): Promise<TargetResult[]> {
  const corpus = loadLanguageCorpus(language);
  const projects = corpus.sources.map((source) => projectOf(source, language));
  const queues = projects.map((project) => candidatesOf(project, language));
  const results: TargetResult[] = [];
  let types = 0;
  for (let round = 0; results.length < TARGETS_PER_LANGUAGE && queues.some((q) => q.length > 0); round++) {
    const queue = queues[round % queues.length];
    const candidate = queue?.shift();
    if (candidate === undefined) continue;
    const isType = TYPES.has(candidate.element.kind);
    if (isType && types >= MAX_TYPES_PER_LANGUAGE) continue;
    const truth = await nameSearchTruth(candidate.project, candidate);
    const otherFiles =
      new Set([...truth].map((key) => key.split(':')[0])).size -
      (truth.size > 0 && [...truth].some((k) => k.startsWith(`${candidate.file}:`)) ? 1 : 0);
    if (otherFiles < 1 || truth.size > MAX_TRUTH_SITES) continue;
    if (isType) types += 1;
    const result = await measureTarget(language, candidate, truth);
    log(`${language}: ${result.path} recall ${result.recall.toFixed(2)} precision ${result.precision.toFixed(2)}`);
    results.push(result);
  }
  for (const project of projects) project.graph.dispose();
  return results;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

function render(results: readonly TargetResult[], engine: string, date: string): string {
  const rows = LANGUAGES.map((language) => {
    const mine = results.filter((r) => r.language === language);
    const truth = mine.reduce((s, r) => s + r.truth, 0);
    const found = mine.reduce((s, r) => s + r.found, 0);
    const matched = mine.reduce((s, r) => s + r.matched, 0);
    const byName = mine.reduce((s, r) => s + r.byName, 0);
    const contexts = mine.filter((r) => r.context !== undefined);
    return [
      language,
      String(mine.length),
      String(truth),
      percent(matched, truth),
      percent(matched, found),
      percent(byName, found),
      `${mine.filter((r) => r.find.correct).length}/${mine.length}`,
      String(
        mine.filter((r) => r.find.contradicts).length + contexts.filter((r) => r.context?.contradicts === true).length,
      ),
      median(mine.map((r) => r.referencesMs)).toFixed(1),
      median(mine.map((r) => r.ratio)).toFixed(2),
    ];
  });
  const header = [
    'language',
    'elements',
    'uses (name search)',
    'recall',
    'precision',
    'by name',
    'FIND correct',
    '"no uses"/"not found" contradicted',
    'references ms (median)',
    'references / name search',
  ];
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const all = results;
  const totalTruth = all.reduce((s, r) => s + r.truth, 0);
  const totalMatched = all.reduce((s, r) => s + r.matched, 0);
  const totalFound = all.reduce((s, r) => s + r.found, 0);
  const contradictions =
    all.filter((r) => r.find.contradicts).length + all.filter((r) => r.context?.contradicts === true).length;
  const misses = all.filter((r) => r.missed.length > 0 || r.extra.length > 0);
  return [
    REFERENCE_TRUTH_SECTION.start,
    '## References and FIND beyond TypeScript (issue 26)',
    '',
    `Measured ${date} with \`npm run bench:references\` (bench/referenceTruth.ts), text search on ${engine}. Per language, ${TARGETS_PER_LANGUAGE} elements of the language corpus (docs/corpus.md) that a rename, a new parameter or a deletion would touch (functions and methods, at most ${MAX_TYPES_PER_LANGUAGE} types), drawn in a fixed order among those whose name no other element of their project declares (nor a declaration the outline leaves out: a class under \`if __name__\`, a Go \`x :=\`, a Rust \`let\`) and that another file uses. For such a name the plain name search is the answer (no toolchain is installed for these languages): every whole-word occurrence (ripgrep) outside comments and strings (the language's lexical scan, not the parse the references use), import declarations and the declaration itself. Recall and precision of the sites \`references\` gives, the share of them marked "by name"; FIND asked from a file that uses the element (correct: the definition found and its uses counted); the focused context's appendix; time of one reference search (CPU, median) and its wall time over the bare name search of the same files in the same rounds.`,
    '',
    line(header),
    line(header.map((_, i) => (i === 0 ? '---' : '---:'))),
    ...rows.map(line),
    '',
    `Goals: 0 "no uses"/"not found" that a search would contradict: **${contradictions}** (${contradictions === 0 ? 'met' : 'missed'}); recall at least 95%: **${percent(totalMatched, totalTruth)}** over all ${totalTruth} uses (${totalMatched / Math.max(1, totalTruth) >= 0.95 ? 'met' : 'missed'}); precision ${percent(totalMatched, totalFound)}. Before this work every one of these elements got "No uses of … outside what is shown in full." and FIND "defined once, 0 uses" (recall 0%).`,
    '',
    ...(misses.length === 0
      ? ['Every use the name search found was found, and nothing else.']
      : [
          'Elements where the two disagree (missed: the name search has it, references not; extra: the other way):',
          '',
          ...misses.map(
            (r) =>
              `- ${r.language} \`${r.path}\`: ${r.missed.length === 0 ? '' : `missed ${r.missed.slice(0, 4).join(', ')}${r.missed.length > 4 ? ` and ${r.missed.length - 4} more` : ''}`}${r.missed.length > 0 && r.extra.length > 0 ? '; ' : ''}${r.extra.length === 0 ? '' : `extra ${r.extra.slice(0, 4).join(', ')}${r.extra.length > 4 ? ` and ${r.extra.length - 4} more` : ''}`}`,
          ),
        ]),
    '',
    "Not measured here: pyright's own references (the checkers of issue 26 item 4 have their section, `npm run bench:checkers`).",
    REFERENCE_TRUTH_SECTION.end,
  ].join('\n');
}

runBenchSection({
  label: 'references',
  markers: REFERENCE_TRUTH_SECTION,
  jsonFile: 'results-references.json',
  async measure(run) {
    await loadAllLanguages();
    const results: TargetResult[] = [];
    for (const language of LANGUAGES) results.push(...(await measureLanguage(language, run.log)));
    const engine = ripgrepPath() === undefined ? 'Node (no ripgrep binary found)' : 'ripgrep';
    const date = new Date().toISOString().slice(0, 10);
    return { markdown: render(results, engine, date), json: { date, engine, results } };
  },
});
