import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyOk } from './applyHarness';

const FILE = 'src/box.ts';

/** A file with every layout habit that must survive: BOM, CRLF, tabs, no final newline. */
const windows =
  '\uFEFF' +
  [
    "import { a } from './a';",
    '',
    'export class Box {',
    '\tsize = 1;',
    '',
    '\tgrow(by: number): void {',
    '\t\tthis.size += by;',
    '\t}',
    '}',
    '',
    'export const table = {',
    '\tone: 1,',
    '\ttwo: 2,',
    '};',
  ].join('\r\n');

function assertLayoutKept(text: string): void {
  assert.ok(text.startsWith('\uFEFF'), 'the BOM stays');
  assert.ok(!/[^\r]\n/.test(text), 'every line break stays CRLF');
  assert.ok(!text.endsWith('\n'), 'still no final newline');
  for (const line of text.slice(1).split('\r\n'))
    assert.ok(!/^ +\S/.test(line), `indented with tabs: ${JSON.stringify(line)}`);
}

void describe('layout of the file is kept', () => {
  void test('a batch of every kind of operation keeps BOM, CRLF, tabs and the missing final newline', () => {
    const { after } = applyOk({ [FILE]: windows }, [
      {
        type: 'REPLACE_ELEMENT',
        path: `${FILE}/class[Box]/method[grow]`,
        content: 'grow(by: number): void {\n  if (by > 0) {\n    this.size += by;\n  }\n}',
      },
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/class[Box]`,
        position: { kind: 'LAST_CHILD' },
        content: 'reset(): void {\n  this.size = 1;\n}',
      },
      { type: 'DELETE_ELEMENT', path: `${FILE}/variable[table]/property[two]` },
      { type: 'ADD_IMPORT', path: FILE, content: "import { b } from './b';" },
      { type: 'CREATE_ELEMENT', path: FILE, position: { kind: 'LAST_CHILD' }, content: 'export const three = 3;' },
      {
        type: 'PATCH_ELEMENT',
        path: `${FILE}/class[Box]/property[size]`,
        patches: [{ search: 'size = 1;', replace: 'size = 2;' }],
      },
    ]);
    const text = after(FILE);
    assertLayoutKept(text);
    assert.equal(
      text,
      '\uFEFF' +
        [
          "import { a } from './a';",
          "import { b } from './b';",
          '',
          'export class Box {',
          '\tsize = 2;',
          '',
          '\tgrow(by: number): void {',
          '\t\tif (by > 0) {',
          '\t\t\tthis.size += by;',
          '\t\t}',
          '\t}',
          '',
          '\treset(): void {',
          '\t\tthis.size = 1;',
          '\t}',
          '}',
          '',
          'export const table = {',
          '\tone: 1,',
          '};',
          '',
          'export const three = 3;',
        ].join('\r\n'),
    );
  });

  void test('deleting the last element and removing the only import keep it too', () => {
    const { after } = applyOk({ [FILE]: windows }, [
      { type: 'DELETE_ELEMENT', path: `${FILE}/variable[table]` },
      { type: 'REMOVE_IMPORT', path: FILE, content: './a' },
    ]);
    assert.equal(
      after(FILE),
      '\uFEFF' +
        [
          'export class Box {',
          '\tsize = 1;',
          '',
          '\tgrow(by: number): void {',
          '\t\tthis.size += by;',
          '\t}',
          '}',
        ].join('\r\n'),
    );
  });

  void test('a file with LF and a final newline keeps them', () => {
    const unix = windows.slice(1).replace(/\r\n/g, '\n') + '\n';
    const { after } = applyOk({ [FILE]: unix }, [
      { type: 'CREATE_ELEMENT', path: FILE, position: { kind: 'LAST_CHILD' }, content: 'export const three = 3;' },
    ]);
    assert.equal(after(FILE), `${unix}\nexport const three = 3;\n`);
  });

  void test('a file indented with four spaces gets four spaces, whatever the content used', () => {
    const four = 'export class Four {\n    a(): void {\n        go();\n    }\n}\n';
    const { after } = applyOk({ [FILE]: four }, [
      {
        type: 'CREATE_ELEMENT',
        path: `${FILE}/class[Four]`,
        position: { kind: 'LAST_CHILD' },
        content: 'b(): void {\n\tstop();\n}',
      },
    ]);
    assert.equal(
      after(FILE),
      'export class Four {\n    a(): void {\n        go();\n    }\n\n    b(): void {\n        stop();\n    }\n}\n',
    );
  });
});
