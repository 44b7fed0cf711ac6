import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { ProgramRun } from '../../check/toolchain/runProgram';
import { nearestFolderWith, type ToolchainSpec, type ToolError } from '../../check/toolchain/toolchainChecker';

/**
 * Go's checker (issue 26) when go is on PATH: on every package of the module of the nearest `go.mod` above each
 * changed file, `go build -gcflags=-e` (every type error of the packages' code, nothing written: `-o /dev/null`), then
 * `go vet` (their test files, and vet's own findings). Packages are named one by one (`./pkg/a ./pkg/b`): the
 * checker's tree links the workspace's folders, and `./...` does not walk linked folders. `go vet` reports only the
 * first type error of each package with its tests, so an error in a test file can hide behind an older one of the
 * same package. Offline (`GOPROXY=off`): an import of a module that is not in the module cache is set aside as the
 * environment's. `go.mod` and `go.sum` are copies in the checker's tree, so nothing the tool writes reaches the
 * workspace.
 */

/** `vet: pkg/a/a.go:5:28: not enough arguments in call to F`, or without `vet: ` from the build and vet's findings. */
const ERROR_LINE = /^(?:vet: )?((?:[A-Za-z]:)?[^\s:][^:]*\.go):(\d+):(\d+): (.*)$/;

/** Messages that say a module or package could not be found, not that the code is wrong. */
const MISSING_MODULE =
  /no required module provides package|missing go\.sum entry|module lookup disabled|cannot find module providing package|is not in (?:GOROOT|std)|could not import \S+ \(/;

export const goVetCheckSpec: ToolchainSpec = {
  executable: 'go',
  versionArgs: ['version'],
  name: 'go build + vet',
  files: /\.go$/,
  label: 'go',
  skip: (file) => file === 'vendor' || file.endsWith('/vendor'),
  copy: (file) => /(?:^|\/)go\.(?:mod|sum|work|work\.sum)$/.test(file),
  projectOf: (file, _text, exists) => nearestFolderWith(file, 'go.mod', exists),
  args(projectPath, files) {
    return ['build', '-gcflags=-e', '-o', nullDevice(), ...packagesOf(projectPath, files)];
  },
  moreRuns: (projectPath, files) => [['vet', ...packagesOf(projectPath, files)]],
  env: () => ({ GOPROXY: 'off', GOFLAGS: '-mod=readonly', GO111MODULE: 'on', GOTOOLCHAIN: 'local' }),
  parse: parseGoVetOutput,
};

/**
 * The module's package folders as `go vet` names them (`.`, `./pkg/a`): the folders of its `.go` files, less those
 * Go leaves out (`testdata`, names starting with `.` or `_`) and those of a module nested in it.
 */
export function packagesOf(projectPath: string, files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    const folder = relative(projectPath, dirname(file)).split(sep).join('/');
    if (folder.startsWith('..')) continue;
    const segments = folder === '' ? [] : folder.split('/');
    if (segments.some((s) => s === 'testdata' || s === 'vendor' || s.startsWith('.') || s.startsWith('_'))) continue;
    // A folder below the project with a go.mod of its own (or under one) is another module's.
    const nested = segments.some((_, i) => existsSync(join(projectPath, ...segments.slice(0, i + 1), 'go.mod')));
    if (!nested) folders.add(folder === '' ? '.' : `./${folder}`);
  }
  return [...folders].sort();
}

function nullDevice(): string {
  return process.platform === 'win32' ? 'NUL' : '/dev/null';
}

/** The errors of `go build`'s or `go vet`'s output, or why it failed when it reported none in code. */
export function parseGoVetOutput(
  run: ProgramRun,
  _projectPath: string,
): { readonly errors: readonly ToolError[] } | { readonly failure: string } {
  const errors: ToolError[] = [];
  const lines = `${run.stderr}\n${run.stdout}`.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = ERROR_LINE.exec(lines[i] ?? '');
    if (match === null) continue;
    // The lines after it that start with a tab belong to it (`have (int)` / `want (int, int)`).
    const details: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j] ?? '').startsWith('\t'); j++)
      details.push((lines[j] ?? '').trim());
    const message = [match[4] ?? '', ...details].join('; ');
    const environment = MISSING_MODULE.test(message)
      ? 'a module or package the code imports is not in the module cache (the check runs offline)'
      : undefined;
    errors.push({
      path: match[1] ?? '',
      line: Number(match[2]),
      column: Number(match[3]),
      code: 'go',
      message,
      ...(environment === undefined ? {} : { environment }),
    });
  }
  if (errors.length > 0 || run.code === 0) return { errors };
  const reason =
    lines.map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#')) ?? `exit code ${run.code ?? '?'}`;
  return { failure: reason.slice(0, 300) };
}
