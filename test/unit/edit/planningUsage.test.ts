import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { planningOutlineOf } from '../../../src/core/edit/planning';
import { usageNotes } from '../../../src/core/edit/planningUsage';
import { planningOutline } from '../../../src/core/llm/prompts';
import { outlineSource } from '../../../src/core/elements/outline';

// The planning outline's usage signals: where each member is used, and which members' code holds the task's words,
// on a class shaped like the real commit of issue 18 whose fix lived in `private onKeyDown = …`.

const handler = (i: number): string =>
  `  handle${i}(event: MouseEvent): void {\n    this.select(event.clientX + ${i}, event.clientY);\n  }\n`;

const MENU = [
  'export class Menu {',
  '  private open = false;',
  '  private items: string[] = [];',
  '  private onKeyDown = (event: KeyboardEvent) => {',
  "    if (event.key === 'Escape') this.close();",
  "    if (event.key === 'ArrowDown') this.select(1, 0);",
  '  };',
  '  mount(target: HTMLElement): void {',
  "    target.addEventListener('keydown', this.onKeyDown);",
  '    this.open = true;',
  '  }',
  '  close(): void {',
  '    this.open = false;',
  '  }',
  '  select(x: number, y: number): void {',
  '    this.items = this.items.slice(x, y);',
  '  }',
  ...Array.from({ length: 60 }, (_, i) => handler(i)),
  '}',
  '',
].join('\n');

const FILE = 'src/menu.ts';
const outline = outlineSource(FILE, MENU);
const ON_KEY_DOWN = `${FILE}/class[Menu]/property[onKeyDown]`;
const INSTRUCTION = 'The menu must close when Escape is pressed';

void describe('usage signals in the planning outline', () => {
  void test('members say who uses them, and the members whose code holds the task words say so', () => {
    const { notes, relevant } = usageNotes(outline, INSTRUCTION);
    assert.equal(notes.get(`${FILE}/class[Menu]/method[close]`), 'used by onKeyDown');
    assert.equal(notes.get(ON_KEY_DOWN), 'used by mount; mentions close, escape');
    assert.match(notes.get(`${FILE}/class[Menu]/method[select]`) ?? '', /^used by onKeyDown, handle0, handle1 \+58$/);
    // `close` is in the task and in `close()`, but the name itself is the outline's own signal; `menu` is the class.
    assert.ok(relevant.has(ON_KEY_DOWN));
    assert.ok(!relevant.has(`${FILE}/class[Menu]/method[handle3]`));
  });

  void test('over the budget the members fold, but the one whose code holds the task stays in full, with its note', () => {
    const counter = createTokenCounter();
    const file = { path: FILE, outline, outlinable: true };
    const full = planningOutlineOf(file, { counter, instruction: INSTRUCTION });
    assert.ok(full.includes(`${ON_KEY_DOWN}  private onKeyDown = (event: KeyboardEvent) =>  // used by mount; mentions close, escape`), full);
    // A small budget, as a 14,000-line file meets the default one.
    const folded = planningOutline(outline, {
      counter,
      budget: 150,
      instruction: INSTRUCTION,
      ...usageNotes(outline, INSTRUCTION),
    });
    assert.ok(folded.includes(`${ON_KEY_DOWN}  private onKeyDown = (event: KeyboardEvent) =>  // used by mount; mentions close, escape`), folded);
    assert.ok(!folded.includes(`${FILE}/class[Menu]/method[handle3]  `), 'the other members are folded');
    assert.ok(!folded.includes('used by onKeyDown, handle0'), 'notes of members the task does not concern go first');
    assert.ok(counter.count(folded) <= 150, `${counter.count(folded)} tokens`);
  });
});
