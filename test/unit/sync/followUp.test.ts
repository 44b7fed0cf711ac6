import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EditConversation } from '../../../src/core/edit/conversation';
import { createEditService } from '../../../src/core/edit/editService';
import { CHANGES_SECTION_TITLE } from '../../../src/core/sync/sync';
import { scripted } from '../../support/llmServer';
import { useScriptedModel } from '../../support/scriptedModel';
import { FILE, HARD, NEW_VALIDATE, VALIDATE, VALIDATED } from '../pipeline/validateEdit';

// A follow-up in one conversation, against the scripted model over real HTTP: the second prompt carries what the
// user changed since the first (as a compact per-element diff), not those elements whole, and not the model's own
// applied change as if the user had made it.

const GETTER_BODY = 'return this.label.toUpperCase();';
const USER_GETTER_BODY = "return this.label.toUpperCase().trim(); // the user's";

void describe('a follow-up request carries the user changes since the model last saw the file', () => {
  const llm = useScriptedModel();

  void test('the second prompt has the section with the changed elements, not the whole changed getter', async () => {
    const service = createEditService();
    const conversation = new EditConversation('chat');
    const provider = llm.provider();
    // The file goes as a focused view (not whole), as a file above smallFileLines would.
    const settings = { smallFileLines: 5, verify: 'syntax' as const };
    llm.server.enqueue(scripted.answer(NEW_VALIDATE));
    const first = await service.edit({
      instruction: 'trim the input',
      files: [{ path: FILE, focus: [VALIDATE] }],
      snapshot: { read: (p) => (p === FILE ? HARD : undefined) },
      provider,
      settings,
      command: 'test.edit',
      conversation,
    });
    assert.equal(first.status, 'ready', first.failure);
    assert.equal(first.userChanges, undefined, 'nothing to report on a first request');

    // The user applied the edit, then changed the target method and the getter.
    const now = VALIDATED.replace(
      'path.isAbsolute(this.root);',
      'path.isAbsolute(this.root) && input !== "-";',
    ).replace(GETTER_BODY, USER_GETTER_BODY);
    llm.server.enqueue(scripted.answer(NEW_VALIDATE.replace('input.trim().length > 0', 'input.trim().length > 1')));
    const before = llm.server.requests.length;
    const second = await service.edit({
      instruction: 'require two characters',
      files: [{ path: FILE, focus: [VALIDATE] }],
      snapshot: { read: (p) => (p === FILE ? now : undefined) },
      provider,
      settings,
      command: 'test.edit',
      conversation,
    });
    assert.ok(second.userChanges !== undefined);
    const prompt = llm.server.requests
      .slice(before)
      .flatMap((r) => r.body?.messages ?? [])
      .filter((m) => m.role === 'user')
      .map((m) => String(m.content))
      .join('\n');
    const at = prompt.indexOf(CHANGES_SECTION_TITLE);
    assert.ok(at > 0, 'the prompt has the section');
    const section = prompt.slice(at, prompt.indexOf('\nTask: '));
    assert.match(section, /~ class\[UserService\]\/getter\[name\] modified/);
    assert.match(section, /~ class\[UserService\]\/method\[validate\] modified/);
    assert.ok(section.includes(`+    ${USER_GETTER_BODY}`), section);
    assert.ok(section.includes(`-    ${GETTER_BODY}`), section);
    // The model's own change (trim) was applied by the user: it is the new baseline, not the user's change.
    assert.ok(!section.includes('-    return input.length > 0'), section);
    // The getter is outside the focus: the context shows its signature, and only the section its changed line.
    const context = prompt.slice(0, at);
    assert.ok(!context.includes(USER_GETTER_BODY), 'the getter is not sent whole');
    assert.equal(prompt.split(USER_GETTER_BODY).length - 1, 1, 'the changed line is sent once');
  });
});
