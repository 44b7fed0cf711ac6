import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { createEditService } from '../../../src/core/edit/editService';
import { createSymbolFinder } from '../../../src/core/edit/findSymbol';
import { CodeGraph } from '../../../src/core/graph/codeGraph';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';
import { loadAllLanguages } from '../../../src/core/language/languages';
import type { SnapshotReader } from '../../../src/core/ops/apply';
import { tempWorkspace } from '../../support/tempWorkspace';

/**
 * FIND in every language (issue 26): a function defined in a file outside the request is found, with its uses, and
 * a name nobody defines is "not found" only after a search of the workspace that says how far it reached.
 */

function diskSnapshot(root: string): SnapshotReader {
  return {
    read: (path) => {
      try {
        return readFileSync(join(root, path), 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

interface LanguageCase {
  readonly language: string;
  readonly files: Record<string, string>;
  /** The file of the request: it calls the function, which is defined elsewhere. */
  readonly request: string;
  readonly name: string;
  readonly defined: string;
  readonly usedIn: string;
}

const CASES: readonly LanguageCase[] = [
  {
    language: 'Python',
    files: {
      'shop/pricing.py': 'def apply_discount(total, rate):\n    return total * (1 - rate)\n',
      'shop/cart.py':
        'from .pricing import apply_discount\n\n\ndef checkout(total):\n    return apply_discount(total, 0.1)\n',
    },
    request: 'shop/cart.py',
    name: 'apply_discount',
    defined: 'shop/pricing.py/function[apply_discount]',
    usedIn: 'shop/cart.py/function[checkout]: return apply_discount(total, 0.1)',
  },
  {
    language: 'Go',
    files: {
      'go.mod': 'module example.com/shop\n',
      'pricing/discount.go':
        'package pricing\n\nfunc ApplyDiscount(total float64) float64 {\n\treturn total * 0.9\n}\n',
      'cart/cart.go':
        'package cart\n\nimport "example.com/shop/pricing"\n\nfunc Checkout(total float64) float64 {\n\treturn pricing.ApplyDiscount(total)\n}\n',
    },
    request: 'cart/cart.go',
    name: 'ApplyDiscount',
    defined: 'pricing/discount.go/function[ApplyDiscount]',
    usedIn: 'cart/cart.go/function[Checkout]: return pricing.ApplyDiscount(total)',
  },
  {
    language: 'Rust',
    files: {
      'Cargo.toml': '[package]\nname = "shop"\n',
      'src/lib.rs': 'mod cart;\nmod pricing;\n',
      'src/pricing.rs': 'pub(crate) fn apply_discount(total: f64) -> f64 {\n    total * 0.9\n}\n',
      'src/cart.rs':
        'use crate::pricing::apply_discount;\n\npub fn checkout(total: f64) -> f64 {\n    apply_discount(total)\n}\n',
    },
    request: 'src/cart.rs',
    name: 'apply_discount',
    defined: 'src/pricing.rs/function[apply_discount]',
    usedIn: 'src/cart.rs/function[checkout]: apply_discount(total)',
  },
  {
    language: 'Java',
    files: {
      'src/shop/Pricing.java':
        'package shop;\n\npublic final class Pricing {\n    public static double applyDiscount(double total) {\n        return total * 0.9;\n    }\n}\n',
      'src/shop/Cart.java':
        'package shop;\n\nclass Cart {\n    double checkout(double total) {\n        return Pricing.applyDiscount(total);\n    }\n}\n',
    },
    request: 'src/shop/Cart.java',
    name: 'applyDiscount',
    defined: 'src/shop/Pricing.java/class[Pricing]/method[applyDiscount]',
    usedIn: 'src/shop/Cart.java/class[Cart]/method[checkout]: return Pricing.applyDiscount(total);',
  },
  {
    language: 'C#',
    files: {
      'src/Pricing.cs':
        'namespace Shop\n{\n    public static class Pricing\n    {\n        public static double ApplyDiscount(double total) => total * 0.9;\n    }\n}\n',
      'src/Cart.cs':
        'namespace Shop\n{\n    class Cart\n    {\n        double Checkout(double total) => Pricing.ApplyDiscount(total);\n    }\n}\n',
    },
    request: 'src/Cart.cs',
    name: 'ApplyDiscount',
    defined: 'src/Pricing.cs/namespace[Shop]/class[Pricing]/method[ApplyDiscount]',
    usedIn:
      'src/Cart.cs/namespace[Shop]/class[Cart]/method[Checkout]: double Checkout(double total) => Pricing.ApplyDiscount(total);',
  },
];

before(async () => {
  await loadAllLanguages();
});

void describe('FIND of a function defined outside the request', () => {
  for (const c of CASES) {
    void test(`${c.language}: found where it is defined, with its use, and said to be outside the request`, async () => {
      const root = tempWorkspace('scalpel-find-', c.files);
      after(() => rmSync(root, { recursive: true, force: true }));
      const finder = createSymbolFinder({
        counter: createTokenCounter(),
        requestFiles: [c.request],
        snapshot: diskSnapshot(root),
        graph: new CodeGraph(nodeSourceFileSystem(root)),
      });
      const answer = await finder.find(c.name);
      const lines = answer.split('\n');
      assert.equal(lines[0], `FIND ${c.name}: defined once, 1 use`, answer);
      assert.match(lines[1] ?? '', new RegExp(`^- defined: ${c.defined.replace(/[[\]().*]/g, '\\$&')}  `));
      assert.equal(lines[2], `- used in ${c.usedIn}`);
      assert.match(answer, /not part of this request: they cannot be shown with NEED or edited here/);
      const missing = await finder.find('neverDefinedAnywhere');
      assert.match(
        missing,
        /^FIND neverDefinedAnywhere: not found in the workspace \(\d+ source files searched; ignored and excluded files are not\)\.$/,
      );
    });
  }
});

void describe('FIND of a Go method', () => {
  void test('finds it by the name code calls it by, not its receiver-qualified path segment', async () => {
    const root = tempWorkspace('scalpel-find-go-method-', {
      'go.mod': 'module example.com/shop\n',
      'cart/cart.go': 'package cart\n\ntype Cart struct{}\n\nfunc (c *Cart) Checkout() int {\n\treturn 1\n}\n',
      'api/api.go':
        'package api\n\nimport "example.com/shop/cart"\n\nfunc Run(c *cart.Cart) int {\n\treturn c.Checkout()\n}\n',
    });
    after(() => rmSync(root, { recursive: true, force: true }));
    const answer = await createSymbolFinder({
      counter: createTokenCounter(),
      requestFiles: ['api/api.go'],
      snapshot: diskSnapshot(root),
      graph: new CodeGraph(nodeSourceFileSystem(root)),
    }).find('Checkout');
    assert.deepEqual(answer.split('\n').slice(0, 3), [
      'FIND Checkout: defined once, 1 use (all by name only)',
      '- defined: cart/cart.go/method[(*Cart).Checkout]  func (c *Cart) Checkout() int',
      '- used in api/api.go/function[Run]: return c.Checkout()',
    ]);
  });
});

/** Enough other functions that lib.rs is shown as a focused view (a small file goes whole, without references). */
const PADDING = Array.from(
  { length: 40 },
  (_, i) => `\npub fn level_${i}(value: usize) -> usize {\n    value.saturating_add(${i})\n}\n`,
).join('');

void describe('a Rust private function called in three files', () => {
  const root = tempWorkspace('scalpel-rust-rename-', {
    'Cargo.toml': '[package]\nname = "widths"\n',
    'src/lib.rs': `mod parse;
mod render;
mod check;

fn clamp_width(width: usize) -> usize {
    width.min(80)
}

pub fn run() -> usize {
    clamp_width(120)
}
${PADDING}`,
    'src/parse.rs': 'use crate::clamp_width;\n\npub fn parse(text: &str) -> usize {\n    clamp_width(text.len())\n}\n',
    'src/render.rs':
      'pub fn render(line: &str) -> String {\n    let width = crate::clamp_width(line.len());\n    format!("clamp_width {}", width)\n}\n',
    'src/check.rs':
      'pub fn check(widths: &[usize]) -> bool {\n    widths.iter().all(|w| super::clamp_width(*w) == *w)\n}\n',
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  const callSites = [
    'src/check.rs/function[check]: widths.iter().all(|w| super::clamp_width(*w) == *w)',
    'src/parse.rs/function[parse]: clamp_width(text.len())',
    'src/render.rs/function[render]: let width = crate::clamp_width(line.len());',
    'src/lib.rs/function[run]: clamp_width(120)',
  ];

  void test('FIND lists the call sites in the three files (was: "defined once, 0 uses")', async () => {
    const finder = createSymbolFinder({
      counter: createTokenCounter(),
      requestFiles: ['src/parse.rs', 'src/render.rs', 'src/check.rs'],
      snapshot: diskSnapshot(root),
      graph: new CodeGraph(nodeSourceFileSystem(root)),
    });
    const answer = await finder.find('clamp_width');
    assert.deepEqual(answer.split('\n').slice(0, 6), [
      'FIND clamp_width: defined once, 4 uses',
      '- defined: src/lib.rs/function[clamp_width]  fn clamp_width(width: usize) -> usize',
      ...callSites.map((site) => `- used in ${site}`),
    ]);
  });

  void test('the focused context lists them too (was: "No uses of ... outside what is shown in full")', () => {
    const service = createEditService({ workspaceRoot: root });
    const result = service.context({
      files: [{ path: 'src/lib.rs', focus: ['src/lib.rs/function[clamp_width]'] }],
      snapshot: diskSnapshot(root),
    });
    assert.equal(result.ok, true);
    const text = result.ok ? result.context.text : '';
    assert.ok(text.includes('References to src/lib.rs/function[clamp_width] (4 in 4 files):'), text);
    // Grouped by file: the file once, then each use's element and line.
    for (const site of callSites) {
      const file = site.slice(0, site.indexOf('.rs/') + 3);
      assert.ok(text.includes(`${file}:\n`) && text.includes(`- ${site.slice(file.length + 1)}`), `${site}\n${text}`);
    }
    assert.ok(!text.includes('No uses of'), text);
  });
});
