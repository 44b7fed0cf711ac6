import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import type { ProgramRun } from '../../check/toolchain/runProgram';
import { nearestFolderWith, type ToolchainSpec, type ToolError } from '../../check/toolchain/toolchainChecker';

/**
 * Rust's checker: `cargo check` (issue 26) when cargo is on PATH, on the Cargo workspace of the nearest `Cargo.toml`
 * above each changed file (`--workspace --all-targets`: its members' tests and examples too), offline, so dependencies
 * must be in cargo's cache already; one that is not makes the check say so and leaves the batch to the parse. Its
 * build output goes to a folder of its own in the temporary folder, kept between checks (warm checks rebuild only the
 * workspace's crates), never the workspace's `target/`.
 */

interface CargoMessage {
  readonly reason?: string;
  readonly message?: {
    readonly level?: string;
    readonly message?: string;
    readonly code?: { readonly code?: string } | null;
    readonly spans?: readonly {
      readonly file_name: string;
      readonly is_primary: boolean;
      readonly line_start: number;
      readonly column_start: number;
    }[];
  };
}

export const cargoCheckSpec: ToolchainSpec = {
  executable: 'cargo',
  name: 'cargo check',
  files: /\.rs$/,
  label: 'cargo',
  skip: (file) => file === 'target' || file.endsWith('/target'),
  // cargo may write the lock file; a copy keeps the workspace's as it is.
  copy: (file) => file === 'Cargo.lock' || file.endsWith('/Cargo.lock'),
  projectOf: (file, _text, exists) => nearestFolderWith(file, 'Cargo.toml', exists),
  args: () => ['check', '--message-format=json', '--offline', '--quiet', '--workspace', '--all-targets'],
  env: (workspaceRoot) => ({
    CARGO_TARGET_DIR: join(
      tmpdir(),
      `scalpel-cargo-target-${createHash('sha256').update(workspaceRoot).digest('hex').slice(0, 12)}`,
    ),
    CARGO_TERM_COLOR: 'never',
  }),
  parse: parseCargoOutput,
};

/** The errors of `cargo check --message-format=json`, or why it failed when it reported none in code. */
export function parseCargoOutput(
  run: ProgramRun,
  projectPath: string,
): { readonly errors: readonly ToolError[] } | { readonly failure: string } {
  const errors: ToolError[] = [];
  for (const line of run.stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    let parsed: CargoMessage;
    try {
      parsed = JSON.parse(line) as CargoMessage;
    } catch {
      continue;
    }
    const message = parsed.message;
    if (parsed.reason !== 'compiler-message' || message?.level !== 'error') continue;
    const span = message.spans?.find((s) => s.is_primary);
    if (span === undefined) continue;
    errors.push({
      path: resolveAgainstAncestors(span.file_name, projectPath),
      line: span.line_start,
      column: span.column_start,
      code: message.code?.code ?? 'rustc',
      message: message.message ?? '',
    });
  }
  if (errors.length > 0 || run.code === 0) return { errors };
  const reason =
    run.stderr
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.startsWith('error')) ?? `exit code ${run.code ?? '?'}`;
  return { failure: reason.slice(0, 300) };
}

/**
 * rustc names a file relative to the Cargo workspace's root, which may be above the package's folder: the first
 * folder from the package up where the file exists.
 */
function resolveAgainstAncestors(name: string, projectPath: string): string {
  if (isAbsolute(name)) return name;
  for (let folder = projectPath; ; folder = dirname(folder)) {
    const candidate = join(folder, name);
    if (existsSync(candidate)) return candidate;
    if (dirname(folder) === folder) return join(projectPath, name);
  }
}
