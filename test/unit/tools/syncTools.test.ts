import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { call, shopWorkspace, toolEnv } from './toolSupport';

// The sync tools of issue 11 on real files: the agent reads through context, the user edits on disk, the agent asks
// what changed, applies a batch written against what it saw, and takes the current text as its new baseline.

const FILE = 'src/price.ts';

void describe('get_changes, sync_state and the merge of apply', () => {
  void test('the agent learns the user changes per element, and apply merges with them under the policy', async () => {
    const root = shopWorkspace();
    const env = toolEnv(root);
    const unseen = await call(env, 'get_changes', { paths: [FILE] });
    assert.match(unseen.text, /not seen in this session, so no baseline: src\/price\.ts/);

    await call(env, 'context', { focus: [`${FILE}/class[Cart]/method[total]`] });
    const disk = join(root, FILE);
    const original = readFileSync(disk, 'utf8');
    const edited = original
      .replace('return Math.round(value * 100) / 100;', "return Math.round(value * 100) / 100; // the user's")
      .replace('this.items.push(price);', 'if (price > 0) this.items.push(price);');
    writeFileSync(disk, edited);

    const changes = await call(env, 'get_changes', { paths: [FILE] });
    assert.equal(changes.isError, false, changes.text);
    assert.match(
      changes.text,
      /the user modified function\[round\] \(\+1 -1\) and class\[Cart\]\/method\[add\] \(\+1 -1\)/,
    );
    assert.match(changes.text, /^ {2}\+ {4}if \(price > 0\) this\.items\.push\(price\);$/m);

    // Written against what the agent saw: add is the user's too (user_wins keeps it), total is the agent's alone.
    const batch = [
      `PATCH_ELEMENT ${FILE}/class[Cart]/method[add]`,
      '<<<<<<< SEARCH',
      '    this.items.push(price);',
      '=======',
      '    this.items.push(Math.abs(price));',
      '>>>>>>> REPLACE',
      `PATCH_ELEMENT ${FILE}/class[Cart]/method[total]`,
      '<<<<<<< SEARCH',
      'applyDiscount(price, 0.1)',
      '=======',
      'applyDiscount(price, 0.2)',
      '>>>>>>> REPLACE',
    ].join('\n');
    const applied = await call(env, 'apply', { operations: batch });
    assert.equal(applied.isError, false, applied.text);
    assert.match(applied.text, /merged per element/);
    assert.match(applied.text, /#1 dropped, the user's text kept: src\/price\.ts\/class\[Cart\]\/method\[add\]/);
    const after = readFileSync(disk, 'utf8');
    assert.ok(after.includes('if (price > 0) this.items.push(price);'), after);
    assert.ok(after.includes("// the user's"));
    assert.ok(after.includes('applyDiscount(price, 0.2)'));

    // What the agent wrote is its baseline: nothing new to report until the user edits again.
    const none = await call(env, 'get_changes', { paths: [FILE] });
    assert.match(none.text, /unchanged since you saw them: src\/price\.ts/);

    writeFileSync(disk, after.replace('export class Cart {', 'export class Cart {\n  label = "cart";\n'));
    const synced = await call(env, 'sync_state', { paths: [FILE] });
    assert.match(synced.text, /^synced 1 file: their current text is your baseline now$/m);
    assert.match(synced.text, /property\[label\]/);
    assert.match((await call(env, 'get_changes', { paths: [FILE] })).text, /unchanged since you saw them/);
  });
});
