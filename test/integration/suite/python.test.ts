import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { scripted } from '../../support/llmServer';
import {
  type AcceptResult,
  type EditResult,
  placeCursor,
  proposedDocument,
  proposedEditors,
  removeWorkspaceFile,
  sentUserText,
  useScriptedModel,
} from './editTestSupport';
import { openWorkspaceFile, waitFor, workspaceUri } from './helpers';

/** Scalpel on a Python file in the real host: the grammar loads on first use, the edit previews and applies. */

const SHAPES = 'src/shapes.py';
const TEXT = [
  'import math',
  '',
  '',
  'class Circle:',
  '    """A circle."""',
  '',
  '    def __init__(self, radius: float) -> None:',
  '        self.radius = radius',
  '',
  '    @property',
  '    def area(self) -> float:',
  '        return math.pi * self.radius ** 2',
  '',
  '    def grow(self, factor: float) -> None:',
  '        self.radius *= factor',
  '',
  '',
  'def unit_circle() -> Circle:',
  '    return Circle(1.0)',
  '',
  // Enough other functions that the focused view costs less than the whole file (which would go unlabelled).
  ...Array.from({ length: 30 }, (_, i) => ['', '', `def circle_${i}() -> Circle:`, `    return Circle(${i}.5)`]).flat(),
  '',
].join('\n');

describe('Python files', () => {
  const model = useScriptedModel();

  before(async () => {
    await writeFile(workspaceUri(SHAPES).fsPath, TEXT);
  });
  after(async () => {
    await removeWorkspaceFile(SHAPES);
  });

  it('Edit Element at Cursor on a method previews the change and applies it, re-indented', async () => {
    // The model answers at column 0, as models often do; Scalpel puts the method back at its class's indentation.
    model.server.enqueue(
      scripted.answer(
        [
          `REPLACE_ELEMENT ${SHAPES}/class[Circle]/method[grow]`,
          '```python',
          'def grow(self, factor: float) -> None:',
          '    if factor <= 0:',
          '        raise ValueError("factor must be positive")',
          '    self.radius *= factor',
          '```',
          '',
        ].join('\n'),
      ),
    );
    const editor = await openWorkspaceFile(SHAPES);
    assert.equal(editor.document.languageId, 'python');
    placeCursor(editor, 'self.radius *= factor');

    const result = (await vscode.commands.executeCommand(
      'scalpel.editElementAtCursor',
      'refuse factors <= 0',
    )) as EditResult;

    assert.equal(result.status, 'preview', result.message);
    const sent = sentUserText(model.server);
    assert.ok(sent.includes(`# @ ${SHAPES}/class[Circle]/method[grow]`), 'the focused method is labelled');
    assert.ok(sent.includes('self.radius *= factor'));
    const proposed = await proposedDocument(SHAPES);
    assert.match(proposed.getText(), /\n {4}def grow\(self, factor: float\) -> None:\n {8}if factor <= 0:\n {12}raise/);
    assert.equal(editor.document.getText(), TEXT, 'nothing is written before Accept');

    const accepted = (await vscode.commands.executeCommand('scalpel.acceptEdit', result.editId)) as AcceptResult;

    assert.deepEqual(accepted.files, [SHAPES]);
    assert.equal(
      editor.document.getText(),
      TEXT.replace(
        '        self.radius *= factor',
        '        if factor <= 0:\n            raise ValueError("factor must be positive")\n        self.radius *= factor',
      ),
    );
    await waitFor(() => proposedEditors().length === 0, { description: 'the preview to close' });
  });
});
