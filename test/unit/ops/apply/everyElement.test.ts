import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ElementNode } from '../../../../src/core/elements/element';
import { outlineSource } from '../../../../src/core/elements/outline';
import { allElements, walkElements } from '../../../../src/core/elements/resolve';
import { applyOperations } from '../../../../src/core/ops/apply';
import type { ContainerFlavor } from '../../../../src/core/language/languageSupport';
import { typescriptLanguage } from '../../../../src/core/language/typescript/typescriptLanguage';
import type { CreatePosition } from '../../../../src/core/ops/operation';
import { fixture } from './applyHarness';

/** Every element of every fixture, one operation at a time: the hard cases are all reached, none is skipped. */

const files: Record<string, string> = {
  'src/service.ts': fixture('service.ts'),
  'src/config.ts': fixture('config.ts'),
  'src/component.tsx': fixture('component.tsx'),
  'src/legacy.ts': fixture('legacy.ts'),
  'src/calculator.test.ts': fixture('calculatorSpec.ts'),
};
const read = (path: string): string | undefined => files[path];

const MEMBER: Readonly<Record<ContainerFlavor, string>> = {
  file: 'export const freshMember = 1;',
  namespace: 'export const freshMember = 1;',
  class: 'freshMember(): number {\n  return 1;\n}',
  interface: 'freshMember: number;',
  typeLiteral: 'freshMember: number;',
  object: 'freshMember: 1',
  enum: 'FreshMember = 99',
  callback: 'freshMember(() => {});',
};

function descendants(element: ElementNode): number {
  return [...walkElements(element.children)].length;
}

void describe('every element of the fixtures', () => {
  for (const [file, text] of Object.entries(files)) {
    const outline = outlineSource(file, text);
    const elements = allElements(outline);

    void test(`${file}: each element deletes cleanly on its own`, () => {
      for (const element of elements) {
        const result = applyOperations({ read }, [{ type: 'DELETE_ELEMENT', path: element.path }]);
        assert.ok(result.ok, `${element.path}: ${result.results[0]?.message ?? ''}`);
        const after = outlineSource(file, result.changes[0]?.after ?? text);
        assert.deepEqual(after.syntaxErrors, [], element.path);
        assert.equal(
          allElements(after).length,
          elements.length - 1 - descendants(element),
          `${element.path}: only it goes`,
        );
        assert.ok(!/\n[ \t]*\n[ \t]*\n/.test(after.text), `${element.path}: no double blank lines`);
      }
    });

    void test(`${file}: a new member goes into each container at each position`, () => {
      const syntax = typescriptLanguage.editor(file, text);
      const containers: { path: string; flavor: ContainerFlavor; children: readonly ElementNode[] }[] = [
        { path: file, flavor: 'file', children: outline.elements },
      ];
      for (const element of elements) {
        const lookup = syntax.containerOf(element);
        if (lookup.ok)
          containers.push({ path: element.path, flavor: lookup.container.flavor, children: element.children });
      }
      for (const container of containers) {
        const positions: CreatePosition[] = [{ kind: 'FIRST_CHILD' }, { kind: 'LAST_CHILD' }];
        for (const child of container.children) {
          const segment = child.path.slice(container.path.length + 1);
          positions.push({ kind: 'BEFORE', sibling: segment }, { kind: 'AFTER', sibling: child.path });
        }
        for (const position of positions) {
          const label = `${container.path} ${position.kind} ${'sibling' in position ? position.sibling : ''}`;
          const result = applyOperations({ read }, [
            { type: 'CREATE_ELEMENT', path: container.path, position, content: MEMBER[container.flavor] },
          ]);
          assert.ok(result.ok, `${label}: ${result.results[0]?.message ?? ''}`);
          const after = outlineSource(file, result.changes[0]?.after ?? '');
          assert.deepEqual(after.syntaxErrors, [], label);
          const created = allElements(after).filter((e) => /^fresh/i.test(e.name));
          assert.equal(created.length, 1, label);
          const expectedParent = container.flavor === 'file' ? '' : container.path;
          assert.equal(created[0]?.path.slice(0, created[0].path.lastIndexOf('/')), expectedParent || file, label);
        }
      }
    });

    void test(`${file}: each element replaced by its own text with its first line at column 0 changes nothing`, () => {
      for (const element of elements) {
        const content = text.slice(element.range.start, element.range.end);
        const result = applyOperations({ read }, [{ type: 'REPLACE_ELEMENT', path: element.path, content }]);
        assert.ok(result.ok, `${element.path}: ${result.results[0]?.message ?? ''}`);
        assert.deepEqual(result.changes, [], element.path);
      }
    });
  }
});
