import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { markedSection, numberOption, spliceMarkedSection, TOOL_ANSWERS_SECTION } from '../../../bench/benchSection';
import { COMPILE_SECTION } from '../../../bench/compileCheck';
import { CONTEXT_COST_SECTION } from '../../../bench/contextCost';
import { PLAYED_AGENT_SECTION } from '../../../bench/playedAgent';
import { CORPORA_SECTION } from '../../../bench/report';
import { findRepoRootOrThrow } from '../../../bench/workspacePaths';

// The one splice every bench runner writes its section of bench/results.md with: a runner that measures the same
// numbers again must leave the file byte for byte as it was, and touch nothing outside its markers.

const MARKERS = { start: '<!-- s: start -->', end: '<!-- s: end -->' };

void describe('bench sections', () => {
  void test('the committed results.md spliced with its own sections is byte for byte the same', () => {
    const results = readFileSync(join(findRepoRootOrThrow(), 'bench', 'results.md'), 'utf8');
    for (const markers of [
      COMPILE_SECTION,
      CONTEXT_COST_SECTION,
      CORPORA_SECTION,
      TOOL_ANSWERS_SECTION,
      PLAYED_AGENT_SECTION,
    ]) {
      const section = markedSection(results, markers);
      assert.ok(section !== undefined, `results.md has the section ${markers.start}`);
      assert.equal(spliceMarkedSection(results, section, markers), results);
    }
  });

  void test('a new run replaces only what is between the markers', () => {
    const before = `# R\n\nabove\n${MARKERS.start}\nold\n${MARKERS.end}\nbelow\n`;
    const spliced = spliceMarkedSection(before, `${MARKERS.start}\nnew\n${MARKERS.end}`, MARKERS);
    assert.equal(spliced, `# R\n\nabove\n${MARKERS.start}\nnew\n${MARKERS.end}\nbelow\n`);
  });

  void test('a file without the section gets it appended after a blank line, or where the runner says', () => {
    const section = `${MARKERS.start}\nnew\n${MARKERS.end}`;
    assert.equal(spliceMarkedSection('# R\n\ntext\n\n', section, MARKERS), `# R\n\ntext\n\n${section}\n`);
    assert.equal(spliceMarkedSection('', section, MARKERS), `\n\n${section}\n`);
    assert.equal(
      spliceMarkedSection('# R\n', section, MARKERS, (markdown, s) => `${s}\n${markdown}`),
      `${section}\n# R\n`,
    );
    assert.equal(markedSection('# R\n', MARKERS), undefined);
  });

  void test('numeric options: a number after the flag, else undefined', () => {
    const args = ['--files', '12', '--per-kind', 'many', '--last'];
    assert.equal(numberOption(args, '--files'), 12);
    assert.equal(numberOption(args, '--per-kind'), undefined);
    assert.equal(numberOption(args, '--last'), undefined);
    assert.equal(numberOption(args, '--absent'), undefined);
  });
});
