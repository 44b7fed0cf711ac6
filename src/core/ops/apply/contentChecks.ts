import type { ElementNode } from '../../elements/element';
import { kindsCompatible } from '../../elements/elementPath';
import type { OpFailure } from './actions';
import type { ContainerFlavor } from '../../language/languageSupport';

/** What content written for an element must be, and the words that tell a model what it got wrong. */

export function describeElement(element: { kind: string; name: string }): string {
  return element.name === '' ? element.kind : `${element.kind}[${element.name}]`;
}

export function memberWords(flavor: ContainerFlavor): string {
  switch (flavor) {
    case 'file':
      return 'top-level code';
    case 'namespace':
      return 'a namespace member';
    case 'class':
      return 'a class member';
    case 'interface':
      return 'an interface member';
    case 'typeLiteral':
      return 'a type literal member';
    case 'object':
      return 'an object literal member';
    case 'enum':
      return 'an enum member';
    case 'callback':
      return 'a call in a callback (a test, a hook, a nested describe)';
  }
}

export function parseHint(flavor: ContainerFlavor): string {
  return flavor === 'file' || flavor === 'namespace' || flavor === 'callback'
    ? 'write complete, valid code for the element'
    : `write only the member itself, as it appears inside its ${flavor === 'typeLiteral' ? 'type' : flavor} (not the whole container), complete and valid`;
}

/** Why content that replaces `node` does not declare exactly it (same name, a compatible kind), if it does not. */
export function declarationMismatch(declared: readonly ElementNode[], node: ElementNode): OpFailure | undefined {
  if (declared.length === 0) {
    return {
      message: `the content declares no element; it must be the whole new ${describeElement(node)}`,
      hint: 'write the complete element, its declaration line included',
    };
  }
  if (declared.length > 1) {
    return {
      message: `the content declares ${declared.length} elements (${declared.map(describeElement).join(', ')}); REPLACE_ELEMENT takes exactly the element it names`,
      hint: `keep only ${describeElement(node)} here; add the others with CREATE_ELEMENT`,
    };
  }
  const only = declared[0];
  if (only === undefined) return undefined;
  if (only.name !== node.name) {
    return {
      message: `the content declares ${describeElement(only)}, not ${describeElement(node)}`,
      hint: `REPLACE_ELEMENT keeps the element's kind, and its name unless the new name is free in the container (a rename; not for one overload signature); to add ${describeElement(only)} use CREATE_ELEMENT`,
    };
  }
  if (!kindsCompatible(only.kind, node.kind)) {
    return {
      message: `the content declares a ${only.kind}, but ${node.path} is a ${node.kind}`,
      hint: `write the element as a ${node.kind}, or DELETE_ELEMENT it and CREATE_ELEMENT the ${only.kind}`,
    };
  }
  return undefined;
}
