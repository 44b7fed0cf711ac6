import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import fc from 'fast-check';
import { walkElements } from '../../../src/core/elements/resolve';
import { languageFor, loadLanguagesFor } from '../../../src/core/language/languages';
import { diffElementsInDetail } from '../../../src/core/ops/diff';
import { serializeOperations } from '../../../src/core/ops/format';
import { createRandom, mutateFile } from '../corpus/roundTrip';
import { applyToFile } from '../ops/diff/applyToFile';
import { checkProperty, fuzzRun } from './fuzzSettings';

/**
 * The element diff's fidelity with renames (issue 27): a file whose declarations are renamed as a commit renames them
 * (every whole-word occurrence of each name, two or three at once, new names drawn among fresh ones and the file's
 * own, so chains `a → b, b → c` and swaps `a ↔ b` come up), some with other element edits (the round-trip harness's
 * mutations); whenever the plain element operations reproduce `after`, apply(before, diff(before, after)) must be
 * `after` byte for byte too, the diff's rename places given.
 * 60 cases per unit run; `SCALPEL_FUZZ_DIFFRENAME_RUNS` for more, `SCALPEL_FUZZ_SEED` to replay.
 */

const repoRoot = join(__dirname, '..', '..', '..', '..');
const fixture = (name: string): string =>
  readFileSync(join(repoRoot, 'test', 'unit', 'ops', 'apply', 'fixtures', name), 'utf8');

const ORDERS = `export class Orders {
  private readonly items: string[] = [];
  private total = 0;

  /** Adds an order, once. */
  addOrder(id: string, price: number): void {
    if (this.items.includes(id)) return;
    this.items.push(id);
    this.total += price;
  }

  addMany(ids: string[]): void {
    for (const id of ids) this.addOrder(id, 1);
  }

  restore(saved: string[]): void {
    this.items.length = 0;
    this.total = 0;
    this.addMany(saved);
  }

  count(): number {
    return this.items.length;
  }
}

export function seed(orders: Orders): void {
  orders.addOrder('first', 2);
  console.log('seeded with addOrder', orders.count());
}

export function reseed(orders: Orders): void {
  orders.restore([]);
  seed(orders);
}
`;

const CONFIG_PY = `import os


def load_config(path):
    """Reads the config at path."""
    with open(path) as handle:
        return parse_config(handle.read())


def parse_config(text):
    return dict(line.split("=", 1) for line in text.splitlines())


class Settings:
    def __init__(self, path):
        self.values = load_config(path)

    def value(self, key):
        return self.values.get(key)

    def reload(self, path):
        # load_config again
        self.values = load_config(path)


def main():
    settings = Settings(os.environ["CONFIG"])
    print(settings.value("name"))
`;

const FILES: ReadonlyArray<readonly [string, string]> = [
  ['src/orders.ts', ORDERS],
  ['src/service.ts', fixture('service.ts')],
  ['src/config.ts', fixture('config.ts')],
  ['pkg/config.py', CONFIG_PY],
];

const FRESH = ['renamed', 'other', 'fresh', 'moved'];

/** Every whole-word occurrence of each key replaced by its value at once (so a swap stays a swap). */
function renameAll(text: string, names: ReadonlyMap<string, string>): string {
  const alternatives = [...names.keys()].sort((a, b) => b.length - a.length).join('|');
  return text.replace(new RegExp(`(?<![\\w$])(?:${alternatives})(?![\\w$])`, 'g'), (name) => names.get(name) ?? name);
}

const run = fuzzRun('diffRename', 60);
/** Diffs the fuzz gave with two or more RENAME_ELEMENTs: the property must have met them. */
let severalRenames = 0;
let cases = 0;

before(async () => {
  await loadLanguagesFor(FILES.map(([file]) => file));
});

void test('diff fuzz: renames, several per file, with other edits, applied back give the new text exactly', () => {
  checkProperty(
    'diffRename',
    run,
    fc.property(
      fc.constantFrom(...FILES),
      fc.integer({ min: 0, max: 0x7fffffff }),
      fc.integer({ min: 1, max: 3 }),
      fc.integer({ min: 0, max: 2 }),
      ([file, text], seed, renameCount, mutationCount) => {
        const language = languageFor(file);
        assert.ok(language !== undefined);
        const random = createRandom(seed);
        const outline = language.outline(file, text);
        let changed = text;
        if (mutationCount > 0) changed = mutateFile(language, file, outline, random, mutationCount)?.target ?? text;
        const declared = [...new Set([...walkElements(outline.elements)].map((e) => e.name))].filter((name) =>
          /^[A-Za-z_]\w*$/.test(name),
        );
        const names = new Map<string, string>();
        for (let i = 0; i < renameCount; i++) {
          const old = declared[Math.floor(random() * declared.length)];
          if (old === undefined || names.has(old)) continue;
          // A third of the new names is another name of the file: a chain, a swap or a clash.
          const pool = random() < 0.33 ? declared : FRESH.map((n) => `${n}${old[0]?.toUpperCase() ?? ''}${i}`);
          const name = pool[Math.floor(random() * pool.length)];
          if (name !== undefined && name !== old) names.set(old, name);
        }
        const after = names.size === 0 ? changed : renameAll(changed, names);
        fc.pre(after !== text && language.outline(file, after).syntaxErrors.length === 0);
        // A text no diff reproduces (trailing blank lines REPLACE_FILE does not write) is not the renames' doing.
        const plain = diffElementsInDetail(file, text, after, { renames: false });
        fc.pre(applyToFile(file, text, plain.operations) === after);
        const diff = diffElementsInDetail(file, text, after);
        const written = serializeOperations(diff.operations);
        assert.equal(diff.verified, true, written);
        assert.equal(applyToFile(file, text, diff.operations, diff.renames), after, written);
        cases += 1;
        if (diff.operations.filter((o) => o.type === 'RENAME_ELEMENT').length >= 2) severalRenames += 1;
      },
    ),
  );
  // Drawn so that a tenth of the cases or more renames two declarations the diff keeps as renames.
  if (cases >= 40) assert.ok(severalRenames > 0, `no case of ${cases} (seed ${run.seed}) had two RENAME_ELEMENTs`);
});
