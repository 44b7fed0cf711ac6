// Rewrites package.json's languageModelTools (modelDescription, inputSchema) from the core's tool table
// (src/core/tools/toolTable.ts), the one place the tools' descriptions and schemas are written.
//   node scripts/syncTools.mjs           rewrite package.json
//   node scripts/syncTools.mjs --check   exit 1 when package.json disagrees (test/unit/tools/toolTable.test.ts checks it too)
import * as esbuild from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

// Inside the repository, so the bundle's packages resolve from its node_modules.
const outfile = resolve('out', 'syncTools', 'toolTable.cjs');
await esbuild.build({
  entryPoints: ['src/core/tools/toolTable.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  packages: 'external',
  outfile,
});
const require = createRequire(import.meta.url);
const { TOOLS, VSCODE_TOOL_PREFIX } = require(outfile);
rmSync(outfile, { force: true });

const before = readFileSync('package.json', 'utf8');
const manifest = JSON.parse(before);
for (const entry of manifest.contributes.languageModelTools) {
  const tool = TOOLS.find((t) => `${VSCODE_TOOL_PREFIX}${t.name}` === entry.name);
  if (tool === undefined) continue;
  entry.modelDescription = tool.description;
  entry.inputSchema = JSON.parse(JSON.stringify(tool.inputSchema));
}
const after = `${JSON.stringify(manifest, null, 2)}\n`;

if (process.argv.includes('--check')) {
  if (after !== before) {
    console.error('package.json disagrees with src/core/tools/toolTable.ts: run node scripts/syncTools.mjs');
    process.exit(1);
  }
} else if (after !== before) {
  writeFileSync('package.json', after);
  console.log('package.json: languageModelTools rewritten from the tool table');
}
