import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { outlineSource } from '../../../../src/core/elements/outline';
import { loadLanguagesFor } from '../../../../src/core/language/languages';
import { applyOperations } from '../../../../src/core/ops/apply';
import { diffElementsInDetail } from '../../../../src/core/ops/diff';
import type { Operation } from '../../../../src/core/ops/operation';
import { applyToFixture, readFixture } from '../specCases';

/** ADD_IMPORT and REMOVE_IMPORT over Rust `use` trees and `extern crate`, and the file's inner doc comments. */

const FILE = 'src/hard_cases.rs';
const TEXT = readFixture('rust/fixtures/hard_cases.rs');
const HEAD =
  '//! The hard-case file of the Rust element model.\nuse std::collections::HashMap;\nuse std::fmt::{self, Display};\n';
const add = (content: string, file = FILE): Operation => ({ type: 'ADD_IMPORT', path: file, content });
const remove = (content: string, path = FILE): Operation => ({ type: 'REMOVE_IMPORT', path, content });

/** The text with its head (the inner doc comment and the two `use` lines) replaced. */
const withHead = (head: string): string => {
  assert.ok(TEXT.startsWith(HEAD));
  return head + TEXT.slice(HEAD.length);
};

function refused(text: string, operations: Operation[], file = FILE): string[] {
  const result = applyOperations({ read: (path) => (path === file ? text : undefined) }, operations);
  assert.equal(result.ok, false);
  assert.deepEqual(result.changes, [], 'nothing is written');
  return result.results.map((r) => r.message ?? '');
}

void describe('Rust use operations', () => {
  before(() => loadLanguagesFor([FILE]));

  void test('a name merges into the braced list of its path; a path without one gets a declaration after the last use', () => {
    const after = applyToFixture(FILE, TEXT, [
      add('use std::fmt::Debug;'),
      add('use std::collections::BTreeMap;'),
      add('use std::fmt::{Display, Write};'),
    ]);
    assert.equal(
      after,
      withHead(
        '//! The hard-case file of the Rust element model.\nuse std::collections::HashMap;\n' +
          'use std::fmt::{self, Debug, Display, Write};\nuse std::collections::BTreeMap;\n',
      ),
    );
  });

  void test('an import the file has is a note: `self` in a list is the import of its path', () => {
    const result = applyOperations({ read: (path) => (path === FILE ? TEXT : undefined) }, [
      add('std::fmt::Display'),
      add('use std::fmt;'),
      add('use std::io;'),
    ]);
    assert.ok(result.ok);
    assert.deepEqual(
      result.results.map((r) => `${r.status} ${r.message ?? ''}`),
      ['ok std::fmt::Display is already imported', 'ok std::fmt is already imported', 'ok '],
    );
  });

  void test('REMOVE_IMPORT takes a name out of a tree: a list left with one name loses its braces', () => {
    assert.equal(
      applyToFixture(FILE, TEXT, [remove('use std::fmt;')]),
      withHead(
        '//! The hard-case file of the Rust element model.\nuse std::collections::HashMap;\nuse std::fmt::Display;\n',
      ),
    );
    assert.equal(
      applyToFixture(FILE, TEXT, [remove('std::collections::HashMap'), remove('use std::fmt::{self, Display};')]),
      TEXT.replace('use std::collections::HashMap;\nuse std::fmt::{self, Display};\n', ''),
    );
    assert.equal(
      applyToFixture(FILE, TEXT, [remove('', `${FILE}/import[std::fmt::{self, Display}]`)]),
      TEXT.replace('use std::fmt::{self, Display};\n', ''),
    );
  });

  void test('a nested tree written one name a line keeps its layout as names come and go', () => {
    const text = 'use std::{\n    collections::HashMap,\n    fmt::{self, Display},\n    io,\n};\n\nfn main() {}\n';
    const after = applyToFixture('src/main.rs', text, [
      add('use std::fmt::Debug;', 'src/main.rs'),
      add('use std::env;', 'src/main.rs'),
      remove('use std::collections::HashMap;', 'src/main.rs'),
    ]);
    assert.equal(after, 'use std::{\n    env,\n    fmt::{self, Debug, Display},\n    io,\n};\n\nfn main() {}\n');
    const emptied = applyToFixture('src/main.rs', text, [remove('use std::fmt::{self, Display};', 'src/main.rs')]);
    assert.equal(emptied, 'use std::{\n    collections::HashMap,\n    io,\n};\n\nfn main() {}\n');
  });

  void test('of a list partly imported already, the other names get a declaration of their own', () => {
    const text = 'use std::fmt::Display;\n\nfn main() {}\n';
    const after = applyToFixture('src/main.rs', text, [add('use std::fmt::{Debug, Display, Write};', 'src/main.rs')]);
    assert.equal(after, 'use std::fmt::Display;\nuse std::fmt::{Debug, Write};\n\nfn main() {}\n');
  });

  void test('a name goes only into a declaration of the same visibility', () => {
    const text = 'pub use crate::shapes::{Circle, Square};\n\nfn main() {}\n';
    const after = applyToFixture('src/lib.rs', text, [
      add('use crate::shapes::Point;', 'src/lib.rs'),
      add('pub use crate::shapes::Line;', 'src/lib.rs'),
    ]);
    assert.equal(after, 'pub use crate::shapes::{Circle, Line, Square};\nuse crate::shapes::Point;\n\nfn main() {}\n');
  });

  void test('a name another import binds already is an error that writes nothing; `as` resolves it', () => {
    const text = 'use std::io::Result;\n\nfn main() {}\n';
    const messages = refused(
      text,
      [add('use std::fmt::Display;', 'src/main.rs'), add('use std::fmt::Result;', 'src/main.rs')],
      'src/main.rs',
    );
    assert.match(messages[1] ?? '', /'Result' is already imported as std::io::Result/);
    assert.equal(
      applyToFixture('src/main.rs', text, [add('use std::fmt::Result as FmtResult;', 'src/main.rs')]),
      'use std::io::Result;\nuse std::fmt::Result as FmtResult;\n\nfn main() {}\n',
    );
  });

  void test('extern crate is a module import', () => {
    const text = 'extern crate serde;\nuse serde::Serialize;\n\nfn main() {}\n';
    const added = applyToFixture('src/main.rs', text, [
      add('extern crate log;', 'src/main.rs'),
      add('extern crate serde;', 'src/main.rs'),
    ]);
    assert.equal(added, 'extern crate serde;\nuse serde::Serialize;\nextern crate log;\n\nfn main() {}\n');
    assert.equal(
      applyToFixture('src/main.rs', text, [remove('', 'src/main.rs/import[crate serde]')]),
      'use serde::Serialize;\n\nfn main() {}\n',
    );
  });

  void test('malformed content is a clear error that writes nothing', () => {
    assert.match(
      refused(TEXT, [add('use std::fmt::{Debug;')])[0] ?? '',
      /ADD_IMPORT src\/hard_cases\.rs: the import does not parse/,
    );
    assert.match(refused(TEXT, [add('fn main() {}')])[0] ?? '', /not an import declaration/);
    assert.match(refused(TEXT, [remove('use std::io::Write;')])[0] ?? '', /nothing is imported from std::io/);
  });

  void test('inner doc comments and attributes belong to the file: imports and a first item go after them', () => {
    const text = '//! The crate.\n#![allow(dead_code)]\n\nfn main() {}\n';
    const [main] = outlineSource('src/main.rs', text).elements;
    assert.equal(main?.startLine, 4);
    const after = applyToFixture('src/main.rs', text, [
      add('use std::fmt;', 'src/main.rs'),
      {
        type: 'CREATE_ELEMENT',
        path: 'src/main.rs',
        position: { kind: 'FIRST_CHILD' },
        content: 'const ZERO: u8 = 0;',
      },
    ]);
    assert.equal(
      after,
      '//! The crate.\n#![allow(dead_code)]\n\nuse std::fmt;\n\nconst ZERO: u8 = 0;\n\nfn main() {}\n',
    );
  });

  void test('the element diff says a use added as ADD_IMPORT', () => {
    const after = TEXT.replace('use std::collections::HashMap;\n', '').replace(
      'use std::fmt::{self, Display};\n',
      'use std::fmt::{self, Display};\nuse std::io;\n',
    );
    const diff = diffElementsInDetail(FILE, TEXT, after);
    assert.ok(diff.verified);
    assert.deepEqual(
      diff.operations.map((o) => `${o.type} ${o.path.slice(FILE.length)} ${'content' in o ? o.content : ''}`),
      ['DELETE_ELEMENT /import[std::collections::HashMap] ', 'ADD_IMPORT  use std::io;'],
    );
  });
});
