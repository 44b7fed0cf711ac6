import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TypeCheckService } from '../src/core/check/typeCheck';
import { CodeGraph } from '../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../src/core/graph/sourceFiles';
import type { Corpus, CorpusPackage } from '../test/support/corpus';
import type { SectionMarkers } from './benchSection';
import { spread } from './stats';

/**
 * Issue 24's monorepo figure: correct edits in a package of a monorepo with project references, as TanStack Router's
 * own repository lays it out. The corpus installs `@tanstack/react-router` with `@tanstack/router-core`, whose npm
 * package ships its TypeScript sources; the bench puts both under `packages/`, each a composite project with
 * `rootDir: src`, react-router referencing router-core and mapping its imports to router-core's sources (`paths`), a
 * solution tsconfig.json at the root, and router-core linked into node_modules as a workspace does. Nothing is built:
 * a program over react-router's files then reads router-core's sources outside its `rootDir` (TS6059) and finds no
 * output of the referenced project (TS6305), the configuration errors issue 24 saw refuse a one-token fix. The edits
 * are react-router's own release-to-release changes, checked with the dependencies linked in and with no
 * node_modules at all. Refused = an error the batch caused that is not set aside as the environment's. Goal: 0.
 */

export interface MonorepoCase {
  readonly file: string;
  readonly installed: boolean;
  readonly refused: boolean;
  readonly environmentErrors: number;
  /** The environment errors' codes, once each. */
  readonly environmentCodes: ReadonlyArray<number | string>;
  /** Files the check read errors of: the changed file and its importers. */
  readonly checkedFiles: number;
  readonly example: string | undefined;
}

export interface MonorepoResults {
  readonly cases: readonly MonorepoCase[];
  readonly durationSeconds: number;
}

const APP = 'packages/react-router';
const CORE = 'packages/router-core';

export async function measureMonorepoRefusals(
  corpus: Corpus,
  options: { edits?: number; log?: (message: string) => void } = {},
): Promise<MonorepoResults> {
  const started = performance.now();
  const pkg = corpus.packages.find((p) => p.name === '@tanstack/react-router');
  if (pkg === undefined) throw new Error('the corpus has no @tanstack/react-router');
  const coreDir = join(pkg.after.packageDir, 'node_modules', '@tanstack', 'router-core');
  if (!existsSync(join(coreDir, 'src'))) throw new Error(`${coreDir} ships no sources`);
  const pairs = spread(
    corpus.changedFilePairs().filter((p) => p.pkg === pkg.name && /\.tsx?$/.test(p.relPath)),
    options.edits ?? 10,
  );
  const cases: MonorepoCase[] = [];
  for (const installed of [true, false]) {
    const root = monorepo(pkg, coreDir, installed);
    const graph = new CodeGraph(nodeSourceFileSystem(root), { toolchains: { typescript: 'bundled' } });
    try {
      const service = new TypeCheckService(graph);
      options.log?.(`  ${installed ? 'dependencies linked' : 'no node_modules'}: ${pairs.length} release edits`);
      for (const pair of pairs) {
        const result = await service.check([
          { file: `${APP}/${pair.relPath}`, before: pair.beforeText, after: pair.afterText },
        ]);
        const [error] = result.newErrors;
        cases.push({
          file: `${APP}/${pair.relPath}`,
          installed,
          refused: result.newErrors.length > 0,
          environmentErrors: result.environmentErrors.length,
          environmentCodes: [...new Set(result.environmentErrors.map((e) => e.code))].sort(
            (a, b) => Number(a) - Number(b),
          ),
          checkedFiles: result.checkedFiles.length,
          example:
            error === undefined ? undefined : `${error.file} TS${error.code} ${error.message.split('\n')[0] ?? ''}`,
        });
      }
    } finally {
      graph.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  }
  return { cases, durationSeconds: (performance.now() - started) / 1000 };
}

const COMPILER_OPTIONS = {
  composite: true,
  declaration: true,
  rootDir: 'src',
  outDir: 'dist',
  strict: true,
  target: 'ES2020',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  jsx: 'react-jsx',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  skipLibCheck: true,
};

/** The monorepo in a fresh folder: the two packages' sources and manifests, their tsconfigs, and node_modules or none. */
function monorepo(pkg: CorpusPackage, coreDir: string, installed: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-monorepo-'));
  const write = (path: string, value: unknown): void => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), `${JSON.stringify(value, null, 2)}\n`);
  };
  for (const [from, to] of [
    [pkg.after.packageDir, APP],
    [coreDir, CORE],
  ] as const) {
    cpSync(join(from, 'src'), join(root, to, 'src'), { recursive: true });
    cpSync(join(from, 'package.json'), join(root, to, 'package.json'));
  }
  write('package.json', { name: 'tanstack-router-monorepo', private: true, workspaces: ['packages/*'] });
  write('tsconfig.json', { files: [], references: [{ path: `./${CORE}` }, { path: `./${APP}` }] });
  write(`${CORE}/tsconfig.json`, { compilerOptions: COMPILER_OPTIONS, include: ['src'] });
  write(`${APP}/tsconfig.json`, {
    compilerOptions: {
      ...COMPILER_OPTIONS,
      paths: {
        '@tanstack/router-core': ['../router-core/src/index.ts'],
        '@tanstack/router-core/isServer': ['../router-core/src/isServer/client.ts'],
        '@tanstack/router-core/*': ['../router-core/src/*'],
      },
    },
    references: [{ path: '../router-core' }],
    include: ['src'],
  });
  if (installed) {
    // The dependencies as a workspace install hoists them, router-core as the workspace's link to its package.
    const modules = join(root, 'node_modules');
    mkdirSync(join(modules, '@tanstack'), { recursive: true });
    const installedModules = join(pkg.after.packageDir, 'node_modules');
    for (const name of readdirSync(installedModules)) {
      if (name === '@tanstack') {
        for (const scoped of readdirSync(join(installedModules, name)))
          if (scoped !== 'router-core')
            symlinkSync(join(installedModules, name, scoped), join(modules, name, scoped), 'dir');
      } else if (!name.startsWith('.')) symlinkSync(join(installedModules, name), join(modules, name), 'dir');
    }
    symlinkSync(join(root, CORE), join(modules, '@tanstack', 'router-core'), 'dir');
  }
  return root;
}

export function renderMonorepoRefusals(results: MonorepoResults): string {
  const lines = [
    MONOREPO_SECTION.start,
    '## Checks that are right: edits in a monorepo with project references (issue 24)',
    '',
    `Measured by \`node out/bench/monorepoRefusalsRun.js\` in ${results.durationSeconds.toFixed(0)} s, the bundled ` +
      "TypeScript. @tanstack/react-router's release edits in a monorepo of it and @tanstack/router-core (the corpus's " +
      'installed sources of both): two composite projects with `rootDir: src`, react-router referencing router-core ' +
      'and mapping its imports to its sources, nothing built (bench/monorepoRefusals.ts). Refused = an error the ' +
      "batch caused that is not set aside as the environment's. Goal: 0 refused.",
    '',
    '| workspace | edits checked | refused | environment errors set aside | their codes | files checked (median) |',
    '|---|---:|---:|---:|---|---:|',
  ];
  for (const installed of [true, false]) {
    const of = results.cases.filter((c) => c.installed === installed);
    if (of.length === 0) continue;
    const codes = [...new Set(of.flatMap((c) => c.environmentCodes))].sort((a, b) => Number(a) - Number(b));
    const checked = of.map((c) => c.checkedFiles).sort((a, b) => a - b);
    lines.push(
      `| ${installed ? 'dependencies linked' : 'no node_modules'} | ${of.length} | ${of.filter((c) => c.refused).length} | ${of.reduce((sum, c) => sum + c.environmentErrors, 0)} | ${codes.map((c) => `TS${c}`).join(', ') || 'none'} | ${checked[Math.floor(checked.length / 2)] ?? 0} |`,
    );
  }
  const refused = results.cases.filter((c) => c.refused);
  if (refused.length > 0) {
    lines.push('', 'Refused:');
    for (const c of refused)
      lines.push(`- ${c.file} (${c.installed ? 'dependencies linked' : 'no node_modules'}): ${c.example ?? ''}`);
  }
  lines.push(MONOREPO_SECTION.end);
  return lines.join('\n');
}

export const MONOREPO_SECTION: SectionMarkers = {
  start: '<!-- issue-24 monorepo: start -->',
  end: '<!-- issue-24 monorepo: end -->',
};
