import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgramRun } from '../../check/toolchain/runProgram';
import { removeAtExit } from '../../check/toolchain/shadowTree';
import type { ToolchainSpec, ToolError } from '../../check/toolchain/toolchainChecker';

/**
 * Java's checker: `javac` (issue 26) when it is on PATH, on every `.java` file of the source root of each changed file
 * (the folder its `package` line names it from: `src/main/java` for `src/main/java/com/acme/Shape.java` in package
 * `com.acme`; a Maven or Gradle layout's `src/test/java` is a source root of its own, not compiled with it). No
 * classpath is discovered: a library the project uses is missing to javac, so `package X does not exist` for a package
 * that is not the workspace's is set aside as the environment's (what follows from it is on both sides of the batch,
 * so it is old). Class files go to a folder in the temporary folder, never the workspace.
 */

const PACKAGE_LINE = /^\s*package\s+([\w.]+)\s*;/m;
/** `src/main/java/com/acme/Shape.java:12: error: cannot find symbol`. */
const ERROR_LINE = /^(.+\.java):(\d+): error: (.*)$/;

export const javacCheckSpec: ToolchainSpec = {
  executable: 'javac',
  name: 'javac',
  files: /\.java$/,
  label: 'javac',
  skip: (file) => file === 'target' || file === 'build' || file.endsWith('/target') || file.endsWith('/build'),
  projectOf(file, text) {
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    const declared = PACKAGE_LINE.exec(text ?? '')?.[1];
    if (declared === undefined) return folder;
    const packagePath = declared.split('.').join('/');
    if (folder === packagePath) return '';
    return folder.endsWith(`/${packagePath}`) ? folder.slice(0, -packagePath.length - 1) : folder;
  },
  args(projectPath, files, workspaceRoot) {
    const hash = createHash('sha256').update(workspaceRoot).digest('hex').slice(0, 12);
    const scratch = join(tmpdir(), `scalpel-javac-${process.pid}-${hash}`);
    mkdirSync(scratch, { recursive: true });
    removeAtExit(scratch);
    // An argument file: a source root may hold more files than a command line takes.
    const argumentFile = join(scratch, 'sources.txt');
    writeFileSync(argumentFile, files.map((f) => `"${f.split('\\').join('/')}"`).join('\n'));
    return [
      '-d',
      join(scratch, 'classes'),
      '-proc:none',
      '-implicit:none',
      '-nowarn',
      '-Xlint:none',
      '-Xmaxerrs',
      '100000',
      '-encoding',
      'UTF-8',
      '-sourcepath',
      projectPath,
      `@${argumentFile}`,
    ];
  },
  parse: parseJavacOutput,
};

/** The errors of javac's output, or why it failed when it reported none in code. */
export function parseJavacOutput(
  run: ProgramRun,
  projectPath: string,
): { readonly errors: readonly ToolError[] } | { readonly failure: string } {
  const errors: ToolError[] = [];
  const lines = `${run.stderr}\n${run.stdout}`.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = ERROR_LINE.exec(lines[i] ?? '');
    if (match === null) continue;
    // The source line follows, then the caret under the column.
    let column = 1;
    for (let j = i + 1; j < Math.min(lines.length, i + 8); j++) {
      if (ERROR_LINE.test(lines[j] ?? '')) break;
      const caret = /^(\s*)\^\s*$/.exec(lines[j] ?? '');
      if (caret !== null) {
        column = (caret[1]?.length ?? 0) + 1;
        break;
      }
    }
    const message = match[3] ?? '';
    const missing = /^package ([\w.]+) does not exist$/.exec(message)?.[1];
    const environment =
      missing !== undefined && !existsSync(join(projectPath, ...missing.split('.')))
        ? `the library of package ${missing} is not on javac's classpath (Scalpel passes none)`
        : undefined;
    errors.push({
      path: match[1] ?? '',
      line: Number(match[2]),
      column,
      code: 'javac',
      message,
      ...(environment === undefined ? {} : { environment }),
    });
  }
  if (errors.length > 0 || run.code === 0) return { errors };
  const reason = lines.map((l) => l.trim()).find((l) => l !== '') ?? `exit code ${run.code ?? '?'}`;
  return { failure: reason.slice(0, 300) };
}
