import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { findExecutable } from '../../../src/core/check/toolchain/runProgram';
import { describeChecks, describeTypeErrors, TypeCheckService } from '../../../src/core/check/typeCheck';
import { CodeGraph } from '../../../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';
import { loadAllLanguages } from '../../../src/core/language/languages';

// Java checked by javac on a shadow of a real source tree (issue 26). Where javac is not on PATH the tests that run it
// are skipped with that reason.

const NO_JAVAC = findExecutable('javac') === undefined ? 'javac is not on PATH' : false;

const GEO =
  'package com.acme.shapes;\n\npublic class Geo {\n    public static int area(int w, int h) {\n        return w * h;\n    }\n}\n';
const APP = [
  'package com.acme;',
  '',
  'import com.acme.shapes.Geo;',
  'import org.junit.Test;',
  '',
  'public class App {',
  '    public static void main(String[] args) {',
  '        System.out.println(Geo.area(2, 3));',
  '    }',
  '}',
  '',
].join('\n');

function listing(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listing(root, `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

void describe('the Java check with javac', { skip: NO_JAVAC }, () => {
  const root = mkdtempSync(join(tmpdir(), 'scalpel-javac-'));
  const files = { 'src/main/java/com/acme/shapes/Geo.java': GEO, 'src/main/java/com/acme/App.java': APP };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  const graph = new CodeGraph(nodeSourceFileSystem(root), { checkTimeLimitMs: 300_000 });
  const service = new TypeCheckService(graph);
  before(async () => loadAllLanguages());
  after(() => {
    graph.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  void test('a parameter added to a method another package calls: refused, the caller named', async () => {
    const disk = listing(root);
    const result = await service.check([
      { file: 'src/main/java/com/acme/shapes/Geo.java', before: GEO, after: GEO.replace('int h)', 'int h, int d)') },
    ]);
    assert.deepEqual(
      result.newErrors.map((e) => `${e.elementPath ?? e.file} ${e.checker ?? ''}`),
      ['src/main/java/com/acme/App.java/class[App]/method[main] javac'],
      describeTypeErrors(result.newErrors),
    );
    assert.match(result.newErrors[0]?.message ?? '', /method area in class Geo cannot be applied to given types/);
    // org.junit is not on the classpath: the environment's, and old anyway.
    assert.equal(result.environmentErrors.length, 0);
    assert.match(describeChecks(result.checks)[0] ?? '', /^types checked with javac \d+/);
    assert.deepEqual(listing(root), disk, 'no class files written in the workspace');
  });

  void test('with the caller updated it passes; a new import of a library not on the classpath is set aside', async () => {
    const result = await service.check([
      { file: 'src/main/java/com/acme/shapes/Geo.java', before: GEO, after: GEO.replace('int h)', 'int h, int d)') },
      { file: 'src/main/java/com/acme/App.java', before: APP, after: APP.replace('area(2, 3)', 'area(2, 3, 4)') },
    ]);
    assert.deepEqual(result.newErrors, [], describeTypeErrors(result.newErrors));
    const withLibrary = await service.check([
      {
        file: 'src/main/java/com/acme/App.java',
        before: APP,
        after: APP.replace('import org.junit.Test;', 'import org.junit.Test;\nimport org.slf4j.Logger;'),
      },
    ]);
    assert.deepEqual(withLibrary.newErrors, [], describeTypeErrors(withLibrary.newErrors));
    assert.equal(withLibrary.environmentErrors.length, 1);
    assert.match(withLibrary.environmentErrors[0]?.reason ?? '', /org\.slf4j is not on javac's classpath/);
  });
});
