/**
 * Small multi-file projects of the five languages Scalpel renames with its reference search (issue 27), shared by
 * the rename tool's tests and the RENAME_ELEMENT tests of `scalpel edit`. In each, a cart's `total` method is
 * declared in one file, used on `self`/`this`/the receiver there, and called in two other files on values whose type
 * the syntax does not tell (by name) and once through the type itself where the language writes that (resolved); one
 * of the other files holds the name in a string, which no rename changes.
 */

export interface RenameProject {
  readonly language: string;
  readonly files: Readonly<Record<string, string>>;
  /** The method's element path. */
  readonly method: string;
  /** Its name as code writes it, and the name the tests give it. */
  readonly oldName: string;
  readonly newName: string;
  /** The files after the rename, for the files it changes. */
  readonly renamed: Readonly<Record<string, string>>;
  /** How many places the rename changes, and how many of them only the name ties. */
  readonly places: number;
  readonly byName: number;
  /** `file:line` of each by-name place. */
  readonly byNamePlaces: readonly string[];
  /** `file:line` of the string holding the old name. */
  readonly stringAt: string;
  /** The language's checker on PATH (or bundled), as the skip reasons name it; undefined: none is run by the tests. */
  readonly checker?: string;
  /** A name declared beside the method: renaming to it is refused. */
  readonly taken: string;
  /** A keyword of the language that TypeScript allows as a name. */
  readonly keyword: string;
}

const PY_CART = `class Cart:
    def __init__(self) -> None:
        self.items: list[int] = []

    def total(self) -> int:
        return sum(self.items)

    def report(self) -> str:
        return str(self.total())


def make_cart() -> Cart:
    return Cart()
`;
const PY_CHECKOUT = `from shop.cart import Cart, make_cart


def checkout(cart: Cart) -> int:
    return cart.total()


def fresh() -> int:
    return make_cart().total()
`;
const PY_AUDIT = `from shop.cart import Cart

FIELDS = ["total", "items"]


def audit(cart: Cart) -> int:
    return Cart.total(cart) + cart.total()
`;

export const PYTHON_PROJECT: RenameProject = {
  language: 'python',
  files: {
    'shop/__init__.py': '',
    'shop/cart.py': PY_CART,
    'shop/checkout.py': PY_CHECKOUT,
    'shop/audit.py': PY_AUDIT,
  },
  method: 'shop/cart.py/class[Cart]/method[total]',
  oldName: 'total',
  newName: 'grand_total',
  renamed: {
    'shop/cart.py': PY_CART.replace('def total(', 'def grand_total(').replace('self.total()', 'self.grand_total()'),
    'shop/checkout.py': PY_CHECKOUT.replaceAll('.total()', '.grand_total()'),
    'shop/audit.py': PY_AUDIT.replace('Cart.total(cart) + cart.total()', 'Cart.grand_total(cart) + cart.grand_total()'),
  },
  places: 6,
  byName: 3,
  byNamePlaces: ['shop/audit.py:7', 'shop/checkout.py:5', 'shop/checkout.py:9'],
  stringAt: 'shop/audit.py:3',
  checker: 'pyright',
  taken: 'report',
  keyword: 'lambda',
};

const GO_CART = `package cart

import "fmt"

// Cart holds prices.
type Cart struct {
	Items []int
}

// The sum of the items.
func (c *Cart) Total() int {
	sum := 0
	for _, item := range c.Items {
		sum += item
	}
	return sum
}

// Report prints the sum.
func (c *Cart) Report() string {
	return fmt.Sprint(c.Total())
}
`;
const GO_CHECKOUT = `package checkout

import "example.com/shop/cart"

// Checkout returns what the cart costs.
func Checkout(c *cart.Cart) int {
	return c.Total()
}
`;
const GO_AUDIT = `package audit

import "example.com/shop/cart"

// Fields names what an audit reads.
var Fields = []string{"Total", "Items"}

// Audit doubles what the cart costs.
func Audit(c *cart.Cart) int {
	return c.Total() * 2
}
`;

export const GO_PROJECT: RenameProject = {
  language: 'go',
  files: {
    'go.mod': 'module example.com/shop\n\ngo 1.19\n',
    'cart/cart.go': GO_CART,
    'checkout/checkout.go': GO_CHECKOUT,
    'audit/audit.go': GO_AUDIT,
  },
  method: 'cart/cart.go/method[(*Cart).Total]',
  oldName: 'Total',
  newName: 'Sum',
  renamed: {
    'cart/cart.go': GO_CART.replace(') Total() int', ') Sum() int').replace('c.Total()', 'c.Sum()'),
    'checkout/checkout.go': GO_CHECKOUT.replace('c.Total()', 'c.Sum()'),
    'audit/audit.go': GO_AUDIT.replace('c.Total()', 'c.Sum()'),
  },
  places: 4,
  byName: 2,
  byNamePlaces: ['audit/audit.go:10', 'checkout/checkout.go:7'],
  stringAt: 'audit/audit.go:6',
  checker: 'go',
  taken: 'Report',
  keyword: 'func',
};

const RS_CART = `pub struct Cart {
    pub items: Vec<i32>,
}

impl Cart {
    pub fn total(&self) -> i32 {
        self.items.iter().sum()
    }

    pub fn report(&self) -> String {
        format!("{}", self.total())
    }
}

pub fn make_cart() -> Cart {
    Cart { items: Vec::new() }
}
`;
const RS_CHECKOUT = `use crate::cart::{make_cart, Cart};

pub fn checkout(cart: &Cart) -> i32 {
    cart.total()
}

pub fn fresh() -> i32 {
    make_cart().total()
}
`;
const RS_AUDIT = `use crate::cart::Cart;

pub const FIELDS: [&str; 2] = ["total", "items"];

pub fn audit(cart: &Cart) -> i32 {
    Cart::total(cart) + cart.total()
}
`;

export const RUST_PROJECT: RenameProject = {
  language: 'rust',
  files: {
    'Cargo.toml': '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
    'src/lib.rs': 'pub mod audit;\npub mod cart;\npub mod checkout;\n',
    'src/cart.rs': RS_CART,
    'src/checkout.rs': RS_CHECKOUT,
    'src/audit.rs': RS_AUDIT,
  },
  method: 'src/cart.rs/impl[Cart]/method[total]',
  oldName: 'total',
  newName: 'sum',
  renamed: {
    'src/cart.rs': RS_CART.replace('fn total(', 'fn sum(').replace('self.total()', 'self.sum()'),
    'src/checkout.rs': RS_CHECKOUT.replaceAll('.total()', '.sum()'),
    'src/audit.rs': RS_AUDIT.replace('Cart::total(cart) + cart.total()', 'Cart::sum(cart) + cart.sum()'),
  },
  places: 6,
  byName: 3,
  byNamePlaces: ['src/audit.rs:6', 'src/checkout.rs:4', 'src/checkout.rs:8'],
  stringAt: 'src/audit.rs:3',
  checker: 'cargo',
  taken: 'report',
  keyword: 'fn',
};

const JAVA_CART = `package shop;

public class Cart {
    private final int[] items = new int[0];

    public int total() {
        int sum = 0;
        for (int item : items) {
            sum += item;
        }
        return sum;
    }

    public String report() {
        return String.valueOf(this.total());
    }
}
`;
const JAVA_CHECKOUT = `package shop;

public class Checkout {
    public int checkout(Cart cart) {
        return cart.total();
    }
}
`;
const JAVA_AUDIT = `package shop;

public class Audit {
    static final String[] FIELDS = {"total", "items"};

    public int audit(Cart cart) {
        return cart.total() * 2;
    }
}
`;

export const JAVA_PROJECT: RenameProject = {
  language: 'java',
  files: {
    'src/shop/Cart.java': JAVA_CART,
    'src/shop/Checkout.java': JAVA_CHECKOUT,
    'src/shop/Audit.java': JAVA_AUDIT,
  },
  method: 'src/shop/Cart.java/class[Cart]/method[total]',
  oldName: 'total',
  newName: 'sum',
  renamed: {
    'src/shop/Cart.java': JAVA_CART.replace('int total()', 'int sum()').replace('this.total()', 'this.sum()'),
    'src/shop/Checkout.java': JAVA_CHECKOUT.replace('cart.total()', 'cart.sum()'),
    'src/shop/Audit.java': JAVA_AUDIT.replace('cart.total()', 'cart.sum()'),
  },
  places: 4,
  byName: 2,
  byNamePlaces: ['src/shop/Audit.java:7', 'src/shop/Checkout.java:5'],
  stringAt: 'src/shop/Audit.java:4',
  checker: 'javac',
  taken: 'report',
  keyword: 'synchronized',
};

const CS_CART = `namespace Shop;

public class Cart
{
    private readonly int[] items = new int[0];

    public int Total()
    {
        var sum = 0;
        foreach (var item in items)
        {
            sum += item;
        }
        return sum;
    }

    public string Report()
    {
        return this.Total().ToString();
    }
}
`;
const CS_CHECKOUT = `namespace Shop;

public class Checkout
{
    public int Run(Cart cart)
    {
        return cart.Total();
    }
}
`;
const CS_AUDIT = `namespace Shop;

public class Audit
{
    public static readonly string[] Fields = { "Total", "Items" };

    public int Run(Cart cart)
    {
        return cart.Total() * 2;
    }
}
`;

export const CSHARP_PROJECT: RenameProject = {
  language: 'csharp',
  files: { 'Shop/Cart.cs': CS_CART, 'Shop/Checkout.cs': CS_CHECKOUT, 'Shop/Audit.cs': CS_AUDIT },
  method: 'Shop/Cart.cs/class[Cart]/method[Total]',
  oldName: 'Total',
  newName: 'Sum',
  renamed: {
    'Shop/Cart.cs': CS_CART.replace('int Total()', 'int Sum()').replace('this.Total()', 'this.Sum()'),
    'Shop/Checkout.cs': CS_CHECKOUT.replace('cart.Total()', 'cart.Sum()'),
    'Shop/Audit.cs': CS_AUDIT.replace('cart.Total()', 'cart.Sum()'),
  },
  places: 4,
  byName: 2,
  byNamePlaces: ['Shop/Audit.cs:9', 'Shop/Checkout.cs:7'],
  stringAt: 'Shop/Audit.cs:5',
  taken: 'Report',
  keyword: 'foreach',
};

export const RENAME_PROJECTS: readonly RenameProject[] = [
  PYTHON_PROJECT,
  GO_PROJECT,
  RUST_PROJECT,
  JAVA_PROJECT,
  CSHARP_PROJECT,
];
