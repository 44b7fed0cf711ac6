import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { CodeGraph } from '../../../src/core/graph/codeGraph';
import { describeReferences, ReferenceFinder, type ElementReferences } from '../../../src/core/graph/references';
import { nodeSourceFileSystem } from '../../../src/core/graph/sourceFiles';
import { loadAllLanguages } from '../../../src/core/language/languages';
import { tempWorkspace } from '../../support/tempWorkspace';

/**
 * References beyond TypeScript (issue 26): identifiers of code found by a name search, resolved through each
 * language's imports, packages or modules, marked "by name" where only the name ties them.
 */

function rows(references: ElementReferences): string[] {
  return references.sites.map(
    (s) => `${s.elementPath ?? `${s.file} (top level)`}: ${s.lineText}${s.byName === true ? '  [by name]' : ''}`,
  );
}

function workspace(prefix: string, files: Record<string, string>): { root: string; finder: ReferenceFinder } {
  const root = tempWorkspace(prefix, files);
  after(() => rmSync(root, { recursive: true, force: true }));
  return { root, finder: new ReferenceFinder(new CodeGraph(nodeSourceFileSystem(root))) };
}

before(async () => {
  await loadAllLanguages();
});

void describe('Rust references', () => {
  const { finder } = workspace('scalpel-rust-refs-', {
    'Cargo.toml': '[package]\nname = "demo"\nversion = "0.1.0"\n',
    'src/lib.rs': `mod parse;
mod render;
mod check;

/// Clamps a width to the terminal.
fn clamp_width(width: usize) -> usize {
    width.min(80)
}

pub fn run() -> usize {
    // clamp_width is private to the crate
    clamp_width(120)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clamps() {
        assert_eq!(clamp_width(100), 80);
    }
}
`,
    'src/parse.rs': `use crate::clamp_width;

pub fn parse(text: &str) -> usize {
    clamp_width(text.len())
}
`,
    'src/render.rs': `pub fn render(line: &str) -> String {
    let width = crate::clamp_width(line.len());
    format!("clamp_width {}", width)
}

struct Gauge;

impl Gauge {
    fn clamp_width(&self) -> usize {
        0
    }
}

fn gauge(g: Gauge) -> usize {
    g.clamp_width()
}
`,
    'src/check.rs': `pub fn check(widths: &[usize]) -> bool {
    widths.iter().all(|w| super::clamp_width(*w) == *w)
}
`,
    'tests/other_crate.rs': `fn clamp_width(x: usize) -> usize { x }

#[test]
fn own() {
    assert_eq!(clamp_width(1), 1);
}
`,
  });

  void test('a private function called in three files: every call site, none in comments, strings or another crate', () => {
    const references = finder.referencesOf('src/lib.rs', 'src/lib.rs/function[clamp_width]');
    assert.deepEqual(rows(references), [
      'src/check.rs/function[check]: widths.iter().all(|w| super::clamp_width(*w) == *w)',
      'src/parse.rs/function[parse]: clamp_width(text.len())',
      'src/render.rs/function[render]: let width = crate::clamp_width(line.len());',
      'src/lib.rs/function[run]: clamp_width(120)',
      'src/lib.rs/namespace[tests]/function[clamps]: assert_eq!(clamp_width(100), 80);',
    ]);
    assert.equal(references.resolution, 'syntax');
    assert.ok(references.sites.every((s) => s.isCall));
  });

  void test('a method of the same name on another type is a different element', () => {
    const references = finder.referencesOf('src/render.rs', 'src/render.rs/impl[Gauge]/method[clamp_width]');
    assert.deepEqual(rows(references), ['src/render.rs/function[gauge]: g.clamp_width()  [by name]']);
    assert.match(describeReferences(references), /1 in 1 file; all by name only/);
  });
});

void describe('Python references', () => {
  const { finder } = workspace('scalpel-python-refs-', {
    'pkg/__init__.py': 'from .util import slugify\n',
    'pkg/util.py': `def slugify(text):
    """slugify the text"""
    return text.lower()


class Page:
    def __init__(self, title):
        self.title = title

    def render(self):
        return self.heading() + slugify(self.title)

    def heading(self):
        return "# heading"
`,
    'pkg/views.py': `from .util import slugify as slug, Page
from . import util


def show(page: Page):
    return slug(page.title) + util.slugify("x") + page.render()
`,
    'pkg/other.py': `def slugify(x):
    return x


def use():
    return slugify("a")
`,
    'app.py': `from pkg import slugify
import pkg.util

print(slugify("A"), pkg.util.slugify("b"))
# slugify in a comment
label = "slugify"
`,
  });

  void test('a function: through a re-exporting package, an alias, its module object; not a module that defines its own', () => {
    const references = finder.referencesOf('pkg/util.py', 'pkg/util.py/function[slugify]');
    assert.deepEqual(rows(references), [
      'app.py/statement[print]: print(slugify("A"), pkg.util.slugify("b"))',
      'app.py/statement[print]: print(slugify("A"), pkg.util.slugify("b"))',
      'pkg/views.py/function[show]: return slug(page.title) + util.slugify("x") + page.render()',
      'pkg/views.py/function[show]: return slug(page.title) + util.slugify("x") + page.render()',
      'pkg/util.py/class[Page]/method[render]: return self.heading() + slugify(self.title)',
    ]);
  });

  void test('a method called on self is resolved; on another value it is found by name', () => {
    assert.deepEqual(rows(finder.referencesOf('pkg/util.py', 'pkg/util.py/class[Page]/method[heading]')), [
      'pkg/util.py/class[Page]/method[render]: return self.heading() + slugify(self.title)',
    ]);
    const render = finder.referencesOf('pkg/util.py', 'pkg/util.py/class[Page]/method[render]');
    assert.deepEqual(rows(render), [
      'pkg/views.py/function[show]: return slug(page.title) + util.slugify("x") + page.render()  [by name]',
    ]);
    assert.match(describeReferences(render), /\(1 in 1 file; all by name only\)/);
  });
});

void describe('Go references', () => {
  const { finder } = workspace('scalpel-go-refs-', {
    'go.mod': 'module example.com/shop\n\ngo 1.21\n',
    'cart/cart.go': `package cart

// total adds the items up.
func total(items []int) int {
	sum := 0
	for _, item := range items {
		sum += item
	}
	return sum
}

// Sum is the exported total.
func Sum(items []int) int { return total(items) }

type Cart struct {
	Items []int
}

func (c *Cart) Add(n int) {
	c.Items = append(c.Items, n)
}
`,
    'cart/tax.go': 'package cart\n\nfunc withTax(items []int) int { return total(items) * 2 }\n',
    'cart/cart_test.go': `package cart

import "testing"

func TestTotal(t *testing.T) {
	if total(nil) != 0 {
		t.Fatal("total of nothing")
	}
}
`,
    'api/handler.go': `package api

import "example.com/shop/cart"

func Handle() int {
	c := &cart.Cart{Items: nil}
	c.Add(1)
	return cart.Sum(c.Items)
}
`,
    'other/total.go': 'package other\n\nfunc total() int { return 0 }\n\nfunc use() int { return total() }\n',
  });

  void test('an unexported function: the files of its package, not another package with its own', () => {
    assert.deepEqual(rows(finder.referencesOf('cart/cart.go', 'cart/cart.go/function[total]')), [
      'cart/cart_test.go/function[TestTotal]: if total(nil) != 0 {',
      'cart/tax.go/function[withTax]: func withTax(items []int) int { return total(items) * 2 }',
      'cart/cart.go/function[Sum]: func Sum(items []int) int { return total(items) }',
    ]);
  });

  void test('an exported function through its import path; a method on a value by name; a field in a literal', () => {
    assert.deepEqual(rows(finder.referencesOf('cart/cart.go', 'cart/cart.go/function[Sum]')), [
      'api/handler.go/function[Handle]: return cart.Sum(c.Items)',
    ]);
    assert.deepEqual(rows(finder.referencesOf('cart/cart.go', 'cart/cart.go/method[(*Cart).Add]')), [
      'api/handler.go/function[Handle]: c.Add(1)  [by name]',
    ]);
    assert.deepEqual(rows(finder.referencesOf('cart/cart.go', 'cart/cart.go/struct[Cart]/property[Items]')), [
      'api/handler.go/function[Handle]: c := &cart.Cart{Items: nil}',
      'api/handler.go/function[Handle]: return cart.Sum(c.Items)  [by name]',
      'cart/cart.go/method[(*Cart).Add]: c.Items = append(c.Items, n)',
      'cart/cart.go/method[(*Cart).Add]: c.Items = append(c.Items, n)',
    ]);
  });
});

void describe('Java references', () => {
  const { finder } = workspace('scalpel-java-refs-', {
    'src/main/java/com/shop/Cart.java': `package com.shop;

public class Cart {
    private int total;

    public int total() {
        return total;
    }

    public static Cart empty() {
        return new Cart();
    }
}
`,
    'src/main/java/com/shop/Checkout.java': `package com.shop;

class Checkout {
    int pay(Cart cart) {
        return cart.total() + Cart.empty().total();
    }
}
`,
    'src/main/java/com/web/Page.java': `package com.web;

import com.shop.Cart;

class Page {
    Cart cart = Cart.empty();
}
`,
    'src/main/java/com/other/Cart.java': 'package com.other;\n\npublic class Cart {\n}\n',
    'src/main/java/com/other/Use.java': 'package com.other;\n\nclass Use {\n    Cart c = new Cart();\n}\n',
  });

  void test('a class: its package and its importers, not a class of the same name elsewhere', () => {
    assert.deepEqual(
      rows(finder.referencesOf('src/main/java/com/shop/Cart.java', 'src/main/java/com/shop/Cart.java/class[Cart]')),
      [
        'src/main/java/com/shop/Checkout.java/class[Checkout]/method[pay]: int pay(Cart cart) {',
        'src/main/java/com/shop/Checkout.java/class[Checkout]/method[pay]: return cart.total() + Cart.empty().total();',
        'src/main/java/com/web/Page.java/class[Page]/property[cart]: Cart cart = Cart.empty();',
        'src/main/java/com/web/Page.java/class[Page]/property[cart]: Cart cart = Cart.empty();',
        'src/main/java/com/shop/Cart.java/class[Cart]/method[empty]: public static Cart empty() {',
        'src/main/java/com/shop/Cart.java/class[Cart]/method[empty]: return new Cart();',
      ],
    );
  });

  void test('a static method through its class; an instance method on a value by name', () => {
    assert.deepEqual(
      rows(
        finder.referencesOf(
          'src/main/java/com/shop/Cart.java',
          'src/main/java/com/shop/Cart.java/class[Cart]/method[empty]',
        ),
      ),
      [
        'src/main/java/com/shop/Checkout.java/class[Checkout]/method[pay]: return cart.total() + Cart.empty().total();',
        'src/main/java/com/web/Page.java/class[Page]/property[cart]: Cart cart = Cart.empty();',
      ],
    );
    assert.deepEqual(
      rows(
        finder.referencesOf(
          'src/main/java/com/shop/Cart.java',
          'src/main/java/com/shop/Cart.java/class[Cart]/method[total]',
        ),
      ),
      [
        'src/main/java/com/shop/Checkout.java/class[Checkout]/method[pay]: return cart.total() + Cart.empty().total();  [by name]',
        'src/main/java/com/shop/Checkout.java/class[Checkout]/method[pay]: return cart.total() + Cart.empty().total();  [by name]',
      ],
    );
  });
});

void describe('C# references', () => {
  const { finder } = workspace('scalpel-csharp-refs-', {
    'src/Shop/Cart.cs': `namespace Shop
{
    public class Cart
    {
        public int Total { get; set; }

        public static Cart Empty() => new Cart();
    }
}
`,
    'src/Shop/Checkout.cs': `namespace Shop
{
    class Checkout
    {
        int Pay(Cart cart) => cart.Total + Cart.Empty().Total;
    }
}
`,
    'src/Web/Page.cs': `using Shop;

namespace Web
{
    class Page
    {
        Cart cart = new Cart { Total = 3 };
    }
}
`,
    'src/Other/Thing.cs': `namespace Other
{
    class Cart { }

    class Use
    {
        Cart c;
    }
}
`,
  });

  void test('a class: its namespace and the files using it, not a class of the same name in another namespace', () => {
    assert.deepEqual(rows(finder.referencesOf('src/Shop/Cart.cs', 'src/Shop/Cart.cs/namespace[Shop]/class[Cart]')), [
      'src/Shop/Checkout.cs/namespace[Shop]/class[Checkout]/method[Pay]: int Pay(Cart cart) => cart.Total + Cart.Empty().Total;',
      'src/Shop/Checkout.cs/namespace[Shop]/class[Checkout]/method[Pay]: int Pay(Cart cart) => cart.Total + Cart.Empty().Total;',
      'src/Web/Page.cs/namespace[Web]/class[Page]/property[cart]: Cart cart = new Cart { Total = 3 };',
      'src/Web/Page.cs/namespace[Web]/class[Page]/property[cart]: Cart cart = new Cart { Total = 3 };',
      'src/Shop/Cart.cs/namespace[Shop]/class[Cart]/method[Empty]: public static Cart Empty() => new Cart();',
      'src/Shop/Cart.cs/namespace[Shop]/class[Cart]/method[Empty]: public static Cart Empty() => new Cart();',
    ]);
  });

  void test('a property set in an initializer is resolved; read on a value it is by name', () => {
    assert.deepEqual(
      rows(finder.referencesOf('src/Shop/Cart.cs', 'src/Shop/Cart.cs/namespace[Shop]/class[Cart]/property[Total]')),
      [
        'src/Shop/Checkout.cs/namespace[Shop]/class[Checkout]/method[Pay]: int Pay(Cart cart) => cart.Total + Cart.Empty().Total;  [by name]',
        'src/Shop/Checkout.cs/namespace[Shop]/class[Checkout]/method[Pay]: int Pay(Cart cart) => cart.Total + Cart.Empty().Total;  [by name]',
        'src/Web/Page.cs/namespace[Web]/class[Page]/property[cart]: Cart cart = new Cart { Total = 3 };',
      ],
    );
  });
});

void describe('Rust references: the 2015 edition, renamed imports and macro bodies', () => {
  const { finder } = workspace('scalpel-rust-2015-', {
    'Cargo.toml': '[package]\nname = "old"\nversion = "0.1.0"\n',
    'src/lib.rs': 'mod de;\nmod value;\nmod error;\nmod parser;\n',
    'src/de.rs': 'pub trait IntoDeserializer {\n    fn into_deserializer(self) -> u8;\n}\n',
    'src/value.rs': `use de::{self, IntoDeserializer};

pub struct Unit;

impl IntoDeserializer for Unit {
    fn into_deserializer(self) -> u8 {
        0
    }
}

macro_rules! each {
    ($($t:ident)*) => {
        $( impl IntoDeserializer for $t { fn into_deserializer(self) -> u8 { 1 } } )*
    };
}
`,
    'src/error.rs': 'pub struct Error;\n\nimpl Error {\n    pub fn empty_value() -> Error {\n        Error\n    }\n}\n',
    'src/parser.rs':
      'use error::Error as ClapError;\n\npub fn parse() -> ClapError {\n    ClapError::empty_value()\n}\n',
  });

  void test('a 2015 `use` path starts at the crate root; a macro body is read token by token', () => {
    const found = rows(finder.referencesOf('src/de.rs', 'src/de.rs/trait[IntoDeserializer]'));
    assert.equal(found.length, 2, found.join('\n'));
    assert.equal(found[0], 'src/value.rs/impl[IntoDeserializer for Unit]: impl IntoDeserializer for Unit {');
    // The macro's element path is the views' business; the line is what matters here.
    assert.match(
      found[1] ?? '',
      /^src\/value\.rs\/statement\[macro_rules!.*\]: \$\( impl IntoDeserializer for \$t \{ fn into_deserializer/,
    );
  });

  void test('an associated function through a type imported under another name', () => {
    assert.deepEqual(rows(finder.referencesOf('src/error.rs', 'src/error.rs/impl[Error]/method[empty_value]')), [
      'src/parser.rs/function[parse]: ClapError::empty_value()',
    ]);
  });
});

void describe('constructors and receiver-named methods', () => {
  const { finder } = workspace('scalpel-ctor-refs-', {
    'src/a/Box.java': 'package a;\n\npublic class Box {\n    public Box() {\n    }\n}\n',
    'src/Box.cs': 'namespace A\n{\n    public class Box\n    {\n        public Box() { }\n    }\n}\n',
  });

  void test("a Java or C# class's constructors carry its name: a rename changes them", () => {
    assert.deepEqual(rows(finder.referencesOf('src/a/Box.java', 'src/a/Box.java/class[Box]')), [
      'src/a/Box.java/class[Box]/constructor: public Box() {',
    ]);
    assert.deepEqual(rows(finder.referencesOf('src/Box.cs', 'src/Box.cs/namespace[A]/class[Box]')), [
      'src/Box.cs/namespace[A]/class[Box]/constructor: public Box() { }',
    ]);
  });
});

void describe('trees without their manifest (Debian source packages, a GOPATH)', () => {
  const { finder } = workspace('scalpel-no-manifest-', {
    'gocode/src/example.com/lib/teststructs/structs.go':
      'package teststructs\n\nfunc NewParentStruct() int {\n\treturn 1\n}\n',
    'gocode/src/example.com/lib/cmp/compare_test.go':
      'package cmp_test\n\nimport ts "example.com/lib/teststructs"\n\nfunc value() int {\n\treturn ts.NewParentStruct()\n}\n',
    'registry/serde/src/lib.rs': 'mod de;\nmod value;\n',
    'registry/serde/src/de.rs': 'pub trait IntoThing {}\n',
    'registry/serde/src/value.rs': 'use de::IntoThing;\n\npub struct Unit;\n\nimpl IntoThing for Unit {}\n',
  });

  void test('a Go import path is matched by the folder it ends (no go.mod): the use is no "No uses"', () => {
    const path = 'gocode/src/example.com/lib/teststructs/structs.go';
    assert.deepEqual(rows(finder.referencesOf(path, `${path}/function[NewParentStruct]`)), [
      'gocode/src/example.com/lib/cmp/compare_test.go/function[value]: return ts.NewParentStruct()',
    ]);
  });

  void test("a Rust `use` path that starts with a module of the crate root is the crate's (no Cargo.toml)", () => {
    const path = 'registry/serde/src/de.rs';
    assert.deepEqual(rows(finder.referencesOf(path, `${path}/trait[IntoThing]`)), [
      'registry/serde/src/value.rs/impl[IntoThing for Unit]: impl IntoThing for Unit {}',
    ]);
  });
});
