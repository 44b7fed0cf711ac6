// Rewrites package.json's language lists from src/core/language/languageCatalog.ts, the one place they are kept:
// the `onLanguage:` activation events and every `editorLangId =~ /.../` when-clause.
//   node scripts/syncLanguages.mjs           rewrite package.json
//   node scripts/syncLanguages.mjs --check   exit 1 when package.json disagrees (test/unit/language checks it too)
import * as esbuild from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';

const bundle = await esbuild.build({
  entryPoints: ['src/core/language/languageCatalog.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  write: false,
});
const catalog = await import(`data:text/javascript,${encodeURIComponent(bundle.outputFiles[0].text)}`);

const before = readFileSync('package.json', 'utf8');
const manifest = JSON.parse(before);
const otherEvents = manifest.activationEvents.filter((e) => !e.startsWith('onLanguage:'));
manifest.activationEvents = [...catalog.supportedVscodeLanguageIds().map((id) => `onLanguage:${id}`), ...otherEvents];
const pattern = `editorLangId =~ /${catalog.editorLangIdPattern()}/`;
const after = `${JSON.stringify(manifest, null, 2)}\n`.replace(/editorLangId =~ \/[^/]*\//g, pattern);

if (process.argv.includes('--check')) {
  if (after !== before) {
    console.error('package.json disagrees with src/core/language/languageCatalog.ts: run node scripts/syncLanguages.mjs');
    process.exit(1);
  }
} else if (after !== before) {
  writeFileSync('package.json', after);
  console.log('package.json updated from the language catalog');
}
