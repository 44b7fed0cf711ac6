import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { TOOLS, VSCODE_TOOL_PREFIX } from '../../../src/core/tools';
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
