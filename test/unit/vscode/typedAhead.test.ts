import assert from 'node:assert/strict';
import { test } from 'node:test';
import { typedIntoFile } from '../../../src/vscode/edit/typedAhead';

// Issue 29, item 1: keys typed right after Ctrl+Alt+E while the extension host was busy land in the file; the
// instruction box takes back exactly those, and nothing when the file changed in another way.

const TEXT = 'canEdit(): boolean {\n  return true;\n}\n';
const AT = TEXT.indexOf('return');

void test('the keys typed at the cursor are found', () => {
  const now = `${TEXT.slice(0, AT)}viewers cannot${TEXT.slice(AT)}`;
  assert.equal(typedIntoFile({ text: TEXT, start: AT, end: AT }, now), 'viewers cannot');
});

void test('keys that replaced a selection are found, the selection is not', () => {
  const end = AT + 'return'.length;
  const now = `${TEXT.slice(0, AT)}only admins${TEXT.slice(end)}`;
  assert.equal(typedIntoFile({ text: TEXT, start: AT, end }, now), 'only admins');
});

void test('a line break, an edit elsewhere or an unchanged file is not typing ahead', () => {
  const ahead = { text: TEXT, start: AT, end: AT };
  assert.equal(typedIntoFile(ahead, TEXT), undefined);
  assert.equal(typedIntoFile(ahead, `${TEXT.slice(0, AT)}x\n${TEXT.slice(AT)}`), undefined);
  assert.equal(typedIntoFile(ahead, `// note\n${TEXT}`), undefined);
  assert.equal(typedIntoFile(ahead, TEXT.slice(1)), undefined);
});
