import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/check/toolchain/runProgram';
import { describeChecks, describeTypeErrors, TypeCheckService } from '../../../src/core/check/typeCheck';
import { CodeGraph, type CodeGraphOptions } from '../../../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';
import { loadAllLanguages } from '../../../src/core/language/languages';
import { packagesOf } from '../../../src/core/language/go/goVetCheck';

// Go checked by `go build` and `go vet` on a shadow of a real module (issue 26). The check needs go on PATH: where it is not, the
// tests that run it are skipped with that reason, and the one that asserts the one-line note runs everywhere.

const GO = findExecutable('go');
const NO_GO = GO === undefined ? 'go is not on PATH' : false;

const MOD = 'module example.com/shapes\n\ngo 1.19\n';
const AREA =
  'package geo\n\n// Area of a rectangle.\nfunc Area(width int, height int) int {\n\treturn width * height\n}\n';
const AREA_TEST =
  'package geo\n\nimport "testing"\n\nfunc TestArea(t *testing.T) {\n\tif Area(2, 3) != 6 {\n\t\tt.Fatal("area")\n\t}\n}\n';
const MAIN =
  'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/shapes/geo"\n)\n\nfunc main() {\n\tfmt.Println(geo.Area(2, 3))\n}\n';
/** A package that was already broken: its error is old. */
const LEGACY = 'package legacy\n\nfunc Old() int {\n\treturn "already wrong"\n}\n';

function module(
  options: CodeGraphOptions = {},
  files: Record<string, string> = {
    'go.mod': MOD,
    'geo/area.go': AREA,
    'geo/area_test.go': AREA_TEST,
    'cmd/app/main.go': MAIN,
    'legacy/legacy.go': LEGACY,
  },
): { root: string; service: TypeCheckService; graph: CodeGraph } {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-go-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const graph = new CodeGraph(nodeSourceFileSystem(root), options);
  return { root, service: new TypeCheckService(graph), graph };
}

function listing(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listing(root, `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

const widened = AREA.replace('height int)', 'height int, depth int)');

void describe('the Go check with go build and go vet', () => {
  const { root, service, graph } = module({ checkTimeLimitMs: 300_000 });
  before(async () => loadAllLanguages());
  after(() => {
    graph.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  void test(
    'a parameter added to a function: refused, the callers in another package and in a test named',
    { skip: NO_GO },
    async () => {
      const files = listing(root);
      const result = await service.check([{ file: 'geo/area.go', before: AREA, after: widened }]);
      assert.deepEqual(
        result.newErrors.map((e) => `${e.elementPath ?? e.file} ${e.checker ?? ''}`).sort(),
        ['cmd/app/main.go/function[main] go build + vet', 'geo/area_test.go/function[TestArea] go build + vet'],
        describeTypeErrors(result.newErrors),
      );
      assert.match(result.newErrors[0]?.message ?? '', /not enough arguments in call to (?:geo\.)?Area/);
      // legacy.go's error was there before the batch.
      assert.ok(!result.newErrors.some((e) => e.file === 'legacy/legacy.go'));
      assert.match(
        describeChecks(result.checks)[0] ?? '',
        /^types checked with go build \+ vet 1\.\d+(?:\.\d+)? \(on PATH/,
      );
      assert.deepEqual(listing(root), files, 'no go.sum or build output written in the workspace');
      assert.equal(readFileSync(join(root, 'geo/area.go'), 'utf8'), AREA);
    },
  );

  void test(
    'the same change with its callers updated passes; a later check sees its own texts',
    { skip: NO_GO },
    async () => {
      const result = await service.check([
        { file: 'geo/area.go', before: AREA, after: widened },
        { file: 'geo/area_test.go', before: AREA_TEST, after: AREA_TEST.replace('Area(2, 3)', 'Area(2, 3, 1)') },
        { file: 'cmd/app/main.go', before: MAIN, after: MAIN.replace('Area(2, 3)', 'Area(2, 3, 1)') },
      ]);
      assert.deepEqual(result.newErrors, [], describeTypeErrors(result.newErrors));
      const again = await service.check([
        { file: 'cmd/app/main.go', before: MAIN, after: MAIN.replace('geo.Area(2, 3)', 'geo.Area(2)') },
      ]);
      assert.deepEqual(
        again.newErrors.map((e) => e.file),
        ['cmd/app/main.go'],
        describeTypeErrors(again.newErrors),
      );
    },
  );

  void test(
    'an import of a module that is not in the cache is the environment, not the edit',
    { skip: NO_GO },
    async () => {
      const result = await service.check([
        {
          file: 'cmd/app/main.go',
          before: MAIN,
          after: MAIN.replace('"fmt"\n', '"fmt"\n\n\t"github.com/nowhere/missing"\n').replace(
            'fmt.Println(geo.Area(2, 3))',
            'fmt.Println(geo.Area(2, 3), missing.X)',
          ),
        },
      ]);
      assert.deepEqual(result.newErrors, [], describeTypeErrors(result.newErrors));
      assert.ok(result.environmentErrors.length > 0, describeChecks(result.checks).join('\n'));
    },
  );
});

void test(
  'a caller in a package whose tests import a module not in the cache is still caught (go vet stops at that import)',
  { skip: NO_GO },
  async () => {
    const { root, service, graph } = module(
      { checkTimeLimitMs: 300_000 },
      {
        'go.mod': MOD,
        'geo/area.go': AREA,
        'geo/perimeter.go': 'package geo\n\nfunc Perimeter(w int, h int) int {\n\treturn 2*(w+h) + 0*Area(w, h)\n}\n',
        'geo/suite_test.go': 'package geo\n\nimport check "gopkg.in/check.v1"\n\nvar _ = check.Suite\n',
      },
    );
    try {
      await loadAllLanguages();
      const result = await service.check([{ file: 'geo/area.go', before: AREA, after: widened }]);
      assert.deepEqual(
        result.newErrors.map((e) => e.elementPath ?? e.file),
        ['geo/perimeter.go/function[Perimeter]'],
        describeTypeErrors(result.newErrors),
      );
    } finally {
      graph.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  },
);

void test('the packages go vet is given: each folder of the module, not testdata, hidden ones or a nested module', () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-go-packages-'));
  try {
    mkdirSync(join(root, 'tools'), { recursive: true });
    writeFileSync(join(root, 'tools', 'go.mod'), 'module example.com/tools\n');
    const files = [
      'main.go',
      'a/a.go',
      'a/a_test.go',
      'a/testdata/x.go',
      '.hidden/h.go',
      '_old/o.go',
      'tools/t.go',
      'tools/sub/s.go',
    ];
    assert.deepEqual(
      packagesOf(
        root,
        files.map((f) => join(root, f)),
      ),
      ['.', './a'],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

void test('without go the Go batch is verified by its parse, and the check says why in one line', async () => {
  const { root, service, graph } = module({ toolchains: { go: 'go-that-is-not-here' } });
  try {
    await loadAllLanguages();
    const result = await service.check([{ file: 'geo/area.go', before: AREA, after: widened }]);
    assert.deepEqual(result.newErrors, []);
    assert.deepEqual(describeChecks(result.checks), ['Go not type-checked: go-that-is-not-here is not on PATH']);
  } finally {
    graph.dispose();
    rmSync(root, { recursive: true, force: true });
  }
});
