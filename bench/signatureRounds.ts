import { ts } from 'ts-morph';
import { createEditService } from '../src/core/edit/editService';
import { createTokenCounter } from '../src/core/context/tokens';
import { FAILURE_SECTION_MAX_TOKENS } from '../src/core/llm/prompts';
import { outlineSource } from '../src/core/elements/outline';
import type { ChatProvider, ChatRequest, ChatResponse } from '../src/core/llm/provider';
import { diskSnapshot } from '../src/cli/writeChanges';
import { CodeGraph } from '../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../src/core/graph/sourceFiles';
import type { Corpus } from '../test/support/corpus';
import type { SectionMarkers } from './benchSection';
import { summarize, type Summary } from './stats';

/**
 * Issue 24's rounds: a signature change whose callers the model saw only as signatures (the caller's file in the
 * request, focused elsewhere), through the real edit service and type check on the corpus. The model is scripted in
 * process and does what a good model does with what it is shown: first it adds a required parameter to the function;
 * then, for every element the repair message lists with errors, it rewrites the calls with one more argument when the
 * conversation holds that element's code in full, and asks for it (NEED) when not. Counted: the repair rounds until
 * the edit applies (goal: at most 1), and the tokens of each repair request's failure section (what failed, code
 * excluded).
 */

export interface SignatureCase {
  readonly file: string;
  readonly element: string;
  readonly caller: string;
  readonly applied: boolean;
  readonly repairRounds: number;
}

export interface SignatureRoundsResults {
  readonly cases: readonly SignatureCase[];
  readonly rounds: Summary;
  readonly failureTokens: Summary;
  readonly failureTokensMax: number;
}

interface Candidate {
  readonly file: string;
  readonly name: string;
  readonly element: string;
  readonly caller: string;
  readonly callerFocus: string;
  readonly newFunction: string;
}

export async function measureSignatureRounds(
  corpus: Corpus,
  options: { perPackage?: number; log?: (message: string) => void } = {},
): Promise<SignatureRoundsResults> {
  const counter = createTokenCounter();
  const cases: SignatureCase[] = [];
  const failureTokens: number[] = [];
  for (const pkg of corpus.packages) {
    const root = pkg.after.packageDir;
    const candidates = candidatesOf(root, pkg.sourceRoot).slice(0, options.perPackage ?? 4);
    options.log?.(`  ${pkg.name}: ${candidates.length} signature changes`);
    const service = createEditService({ workspaceRoot: root });
    for (const candidate of candidates) {
      const provider = scriptedModel(candidate, counter, failureTokens);
      const result = await service.edit({
        instruction: `${candidate.name} takes one more argument; update its callers`,
        files: [
          { path: candidate.file, focus: [candidate.element] },
          { path: candidate.caller, focus: [candidate.callerFocus] },
        ],
        snapshot: diskSnapshot(root),
        provider,
        settings: { planning: 'never', typescript: 'bundled', repairRounds: 3 },
        command: 'bench.signature',
      });
      cases.push({
        file: candidate.file,
        element: candidate.element,
        caller: candidate.caller,
        applied: result.status === 'ready',
        repairRounds: result.outcome.requests.length - 1,
      });
    }
  }
  return {
    cases,
    rounds: summarize(cases.filter((c) => c.applied).map((c) => c.repairRounds)),
    failureTokens: summarize(failureTokens),
    failureTokensMax: failureTokens.length === 0 ? Number.NaN : Math.max(...failureTokens),
  };
}

/** Exported functions with a body, called by name in another file of over 50 lines that has other elements. */
function candidatesOf(root: string, sourceRoot: string): Candidate[] {
  const graph = new CodeGraph(nodeSourceFileSystem(root));
  const found: Candidate[] = [];
  try {
    for (const file of [...graph.imports.files()].sort()) {
      if (!file.startsWith(`${sourceRoot}/`) || /\.d\.[cm]?ts$|\.test\.|\.spec\./.test(file)) continue;
      const text = graph.imports.textOf(file);
      if (text === undefined) continue;
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const outline = outlineSource(file, text);
      for (const statement of source.statements) {
        if (!ts.isFunctionDeclaration(statement) || statement.name === undefined || statement.body === undefined)
          continue;
        if (!(ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
        if (
          statement.parameters.some(
            (p) => p.dotDotDotToken !== undefined || p.questionToken !== undefined || p.initializer !== undefined,
          )
        )
          continue;
        const name = statement.name.text;
        if (source.statements.filter((s) => ts.isFunctionDeclaration(s) && s.name?.text === name).length !== 1)
          continue;
        const element = outline.elements.find((e) => e.name === name && e.kind === 'function');
        if (element === undefined) continue;
        for (const importer of graph.imports.importersOf(file)) {
          const callerText = graph.imports.textOf(importer);
          if (callerText === undefined || callerText.split('\n').length <= 50) continue;
          if (!new RegExp(`\\b${name}\\(`).test(callerText)) continue;
          const callerOutline = outlineSource(importer, callerText);
          const elsewhere = callerOutline.elements.find(
            (e) => e.kind !== 'import' && !callerText.slice(e.range.start, e.range.end).includes(`${name}(`),
          );
          if (elsewhere === undefined) continue;
          const last = statement.parameters[statement.parameters.length - 1];
          const at = last === undefined ? statement.parameters.pos : last.end;
          const declaration = text.slice(element.range.start, element.range.end);
          const offset = at - element.range.start;
          const added = `${last === undefined ? '' : ', '}extraArgument: number`;
          found.push({
            file,
            name,
            element: element.path,
            caller: importer,
            callerFocus: elsewhere.path,
            newFunction: `${declaration.slice(0, offset)}${added}${declaration.slice(offset)}`,
          });
          break;
        }
      }
    }
  } finally {
    graph.dispose();
  }
  return found;
}

/** The model of the bench: adds the parameter, then fixes every caller whose code it holds, asking for the rest. */
function scriptedModel(
  candidate: Candidate,
  counter: ReturnType<typeof createTokenCounter>,
  failureTokens: number[],
): ChatProvider {
  let calls = 0;
  const answer = (text: string): ChatResponse => ({
    text,
    usage: { inputTokens: 0, outputTokens: 0, source: 'estimated' },
    model: 'scripted',
  });
  return {
    id: 'openai',
    model: 'scripted',
    endpoint: 'in-process',
    chat(request: ChatRequest): Promise<ChatResponse> {
      calls += 1;
      if (calls === 1)
        return Promise.resolve(
          answer(`REPLACE_ELEMENT ${candidate.element}\n\`\`\`ts\n${candidate.newFunction}\n\`\`\``),
        );
      const last = request.messages.at(-1)?.content ?? '';
      const failures = last.split(/\n\n(?=The code holding|```|~~~~|Answer only)/)[0] ?? last;
      if (last.startsWith('Your operations were checked')) failureTokens.push(counter.count(failures));
      // After its NEED is answered, the model fixes the errors the last repair message listed.
      const listed = [...request.messages].reverse().find((m) => m.content.startsWith('Your operations were checked'));
      // The elements it lists with errors, and those whose code it attaches (they hold errors past the listed ones).
      const paths = [...(listed?.content ?? '').matchAll(/^ {2}- (\S.*?): TS\d+ |^\/\/ @ (.+)$/gm)]
        .map((m) => m[1] ?? m[2] ?? '')
        .filter((path) => path !== 'top level');
      const conversation = request.messages.map((m) => m.content).join('\n');
      const operations: string[] = [];
      const needs: string[] = [];
      for (const path of [...new Set(paths)]) {
        const code = fullCodeOf(conversation, path);
        if (code === undefined) {
          needs.push(`NEED ${path}`);
          continue;
        }
        const fixed = withOneMoreArgument(code, candidate.name);
        operations.push(`REPLACE_ELEMENT ${path}\n\`\`\`ts\n${fixed}\n\`\`\``);
      }
      return Promise.resolve(answer(needs.length > 0 ? needs.join('\n') : operations.join('\n\n')));
    },
  };
}

/** Every call `name(...)` of the code with `0` added as its last argument (parentheses inside the call matched). */
function withOneMoreArgument(code: string, name: string): string {
  let out = '';
  let from = 0;
  for (const match of code.matchAll(new RegExp(`\\b${name}(<[^()]*?>)?\\(`, 'g'))) {
    const open = match.index + match[0].length - 1;
    if (open < from) continue;
    let depth = 0;
    let close = open;
    for (; close < code.length; close++) {
      if (code[close] === '(') depth += 1;
      else if (code[close] === ')' && --depth === 0) break;
    }
    const args = code.slice(open + 1, close);
    out += `${code.slice(from, open + 1)}${args.trim() === '' ? '0' : `${args}, 0`}`;
    from = close;
  }
  return out + code.slice(from);
}

/**
 * The last full text of an element the conversation showed under its `// @ path` label, the first line of its code
 * block, up to the fence that closes that block (a longer fence when the code holds one).
 */
function fullCodeOf(conversation: string, path: string): string | undefined {
  const label = `// @ ${path}\n`;
  const at = conversation.lastIndexOf(label);
  if (at < 0) return undefined;
  const opening = conversation.slice(conversation.lastIndexOf('\n', at - 2) + 1, at);
  const fence = /^(`{3,}|~{3,})/.exec(opening)?.[1];
  if (fence === undefined) return undefined;
  const rest = conversation.slice(at + label.length);
  const end = rest.indexOf(`\n${fence}\n`);
  return end < 0 ? undefined : rest.slice(0, end);
}

export function renderSignatureRounds(results: SignatureRoundsResults): string {
  const applied = results.cases.filter((c) => c.applied);
  return [
    SIGNATURE_SECTION.start,
    '## Rounds for a signature change whose callers were shown only as signatures (issue 24)',
    '',
    'Measured by `node out/bench/signatureRoundsRun.js`: a required parameter added to an exported function of the ' +
      "corpus, the caller's file in the request focused on another element; the type check finds the other callers " +
      '(in that file and in files outside the request). The model is scripted in process and fixes every element ' +
      'whose code it holds in full that the last repair message lists or attaches, asking with NEED for the rest. ' +
      `Goal: at most 1 repair round. The failure section of a repair message is cut at ${FAILURE_SECTION_MAX_TOKENS} tokens.`,
    '',
    `| signature changes | applied | repair rounds (median, max) | failure-section tokens per repair request (median, max) |`,
    '|---:|---:|---|---|',
    `| ${results.cases.length} | ${applied.length} | ${results.rounds.median}, ${results.rounds.count === 0 ? 'n/a' : Math.max(...applied.map((c) => c.repairRounds))} | ${results.failureTokens.median.toFixed(0)}, ${results.failureTokensMax.toFixed(0)} |`,
    '',
    '| function | caller in the request | applied | repair rounds |',
    '|---|---|---|---:|',
    ...results.cases.map((c) => `| ${c.element} | ${c.caller} | ${c.applied ? 'yes' : 'no'} | ${c.repairRounds} |`),
    SIGNATURE_SECTION.end,
  ].join('\n');
}

export const SIGNATURE_SECTION: SectionMarkers = {
  start: '<!-- issue-24 signature rounds: start -->',
  end: '<!-- issue-24 signature rounds: end -->',
};
