import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createTokenCounter } from '../../../src/core/context/tokens';
import { listedTools, TOOLS, VSCODE_TOOL_PREFIX } from '../../../src/core/tools';
import { repoRoot } from './toolSupport';

interface ContributedTool {
  name: string;
  modelDescription: string;
  inputSchema: unknown;
  toolReferenceName?: string;
  canBeReferencedInPrompt?: boolean;
  tags?: string[];
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: ContributedTool[]; mcpServerDefinitionProviders: Array<{ id: string }> };
};

void test("package.json's languageModelTools declare exactly the core's tool table", () => {
  const declared = manifest.contributes.languageModelTools;
  assert.deepEqual(
    declared.map((t) => t.name),
    TOOLS.map((t) => `${VSCODE_TOOL_PREFIX}${t.name}`),
  );
  for (const tool of TOOLS) {
    const entry = declared.find((t) => t.name === `${VSCODE_TOOL_PREFIX}${tool.name}`);
    assert.equal(entry?.modelDescription, tool.description, tool.name);
    assert.deepEqual(entry?.inputSchema, JSON.parse(JSON.stringify(tool.inputSchema)), tool.name);
    assert.match(entry?.name ?? '', /^[\w-]+$/);
    if (entry?.canBeReferencedInPrompt === true) assert.ok(entry.toolReferenceName, `${tool.name}: toolReferenceName`);
    assert.ok(entry?.tags?.includes(tool.writes ? 'edit' : 'read'), `${tool.name}: tags`);
  }
});

void test('the MCP server definition provider is declared', () => {
  assert.deepEqual(
    manifest.contributes.mcpServerDefinitionProviders.map((p) => p.id),
    ['scalpel.mcp'],
  );
});

void test('the tool list an MCP session starts with costs under 1,200 tokens, and says what each tool needs', () => {
  // Issue 27: the list was 2,212 tokens per session (2,924 with search, paths, since and the globs added), then 1,199;
  // the rename tool added 79 (1,278); find_symbols' name paths, depth and includeBody and references' declaration and
  // implementations came with shorter descriptions and schemas elsewhere (find_path's legend moved to its answer):
  // 1,195.
  const listed = listedTools();
  const tokens = createTokenCounter().count(JSON.stringify({ tools: listed }));
  assert.ok(tokens < 1_200, `the tool list is ${tokens} tokens`);
  for (const tool of listed) {
    assert.ok(tool.description.length > 40, `${tool.name}: a description`);
    const full = TOOLS.find((t) => t.name === tool.name);
    assert.deepEqual(
      Object.keys(tool.inputSchema['properties'] ?? {}),
      Object.keys(full?.inputSchema.properties ?? {}),
    );
    assert.deepEqual(tool.inputSchema['required'], full?.inputSchema.required);
  }
  // What references finds and what only search finds is said where the agent chooses between the two.
  const references = listed.find((t) => t.name === 'references')?.description ?? '';
  assert.match(
    references,
    /^Resolved uses .*implementations, or the declaration of name used in path\. Not strings, keys, duck-typed uses: search\./,
  );
  assert.match(
    listed.find((t) => t.name === 'search')?.description ?? '',
    /Finds what references cannot: strings, comments, property keys, duck-typed uses\./,
  );
});
