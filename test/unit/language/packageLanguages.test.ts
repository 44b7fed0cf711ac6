import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  editorLangIdPattern,
  LANGUAGE_CATALOG,
  supportedVscodeLanguageIds,
} from '../../../src/core/language/languageCatalog';
import { supportedLanguages } from '../../../src/core/language/languages';

/**
 * package.json declares the languages Scalpel activates on and shows its menus for; the language catalog is where
 * they are kept. When this fails, run `node scripts/syncLanguages.mjs` to rewrite package.json from the catalog.
 */

const ROOT = join(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  activationEvents: string[];
};
const manifestText = readFileSync(join(ROOT, 'package.json'), 'utf8');
const HINT = 'package.json disagrees with src/core/language/languageCatalog.ts: run node scripts/syncLanguages.mjs';

void test('the registry starts with exactly the languages of the catalog', () => {
  assert.deepEqual(
    supportedLanguages().map((l) => [l.id, l.extensions, l.vscodeLanguageIds]),
    LANGUAGE_CATALOG.map((l) => [l.id, l.extensions, l.vscodeLanguageIds]),
  );
});

void test("package.json's onLanguage activation events are the catalog's VS Code language ids", () => {
  const events = manifest.activationEvents.filter((e) => e.startsWith('onLanguage:')).map((e) => e.slice(11));
  assert.deepEqual(events, supportedVscodeLanguageIds(), HINT);
});

void test("every editorLangId when-clause of package.json matches the catalog's languages and no other", () => {
  const patterns = [...manifestText.matchAll(/editorLangId =~ \/([^/]*)\//g)].map((m) => m[1] ?? '');
  assert.ok(patterns.length >= 5, 'the menus, the keybinding and Show Context name the languages');
  for (const pattern of patterns) {
    assert.equal(pattern, editorLangIdPattern(), HINT);
    const regex = new RegExp(pattern);
    for (const id of supportedVscodeLanguageIds()) assert.ok(regex.test(id), `${pattern} matches ${id}`);
    for (const other of ['pythonx', 'json', 'markdown', 'typescriptx', 'xjavascript', 'plaintext'])
      assert.ok(!regex.test(other), `${pattern} does not match ${other}`);
  }
});
