import type { ElementNode } from '../../core/elements/element';
import { type CliCommand, parseCommandArgs } from '../command';
import { UsageError } from '../cliError';
import { outlineWorkspaceFile, readWorkspaceFile, workspaceRoot } from '../workspaceFiles';

interface OutlineEntry {
  path: string;
  kind: string;
  name: string;
  startLine: number;
  endLine: number;
  signature: string;
  overloads?: number;
  children: OutlineEntry[];
}

function toEntry(element: ElementNode): OutlineEntry {
  return {
    path: element.path,
    kind: element.kind,
    name: element.name,
    startLine: element.startLine,
    endLine: element.endLine,
    signature: element.signature,
    ...(element.overloads === undefined ? {} : { overloads: element.overloads.length }),
    children: element.children.map(toEntry),
  };
}

function printTree(elements: readonly ElementNode[], depth: number, out: string[]): void {
  for (const element of elements) {
    const lines = `${element.startLine}-${element.endLine}`;
    out.push(`${'  '.repeat(depth)}${element.path}  ${lines}  ${element.kind}`);
    printTree(element.children, depth + 1, out);
  }
}

export const outlineCommand: CliCommand = {
  name: 'outline',
  summary: 'list the elements of a file with their paths, line ranges and kinds',
  usage: `Usage: scalpel outline <file> [--root DIR] [--json]

Lists every element of a source file (TypeScript, JavaScript, Python, Go, Rust, Java, C#) as a tree of element paths
(e.g. src/user.ts/class[User]/method[validate]) with line ranges and kinds.

Options:
  --root DIR   workspace root; a relative <file> is relative to it, like after git -C
               (default: the current directory)
  --json       print {file, lineCount, elements: [{path, kind, name, startLine, endLine, signature, children}]}`,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(this, args, {
      root: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (values.help === true) {
      io.stdout(`${this.usage}\n`);
      return 0;
    }
    if (positionals.length !== 1 || positionals[0] === undefined)
      throw new UsageError(`outline takes exactly one file\n\n${this.usage}`);
    const root = workspaceRoot(io, values.root);
    const outline = outlineWorkspaceFile(readWorkspaceFile(root, positionals[0]));
    if (values.json === true) {
      io.stdout(
        `${JSON.stringify({ file: outline.file, lineCount: outline.lineCount, elements: outline.elements.map(toEntry) }, null, 2)}\n`,
      );
    } else {
      const out: string[] = [];
      printTree(outline.elements, 0, out);
      io.stdout(out.length === 0 ? `${outline.file}: no elements\n` : `${out.join('\n')}\n`);
    }
    return 0;
  },
};
