/**
 * The operation format as the system prompt teaches it. Every request pays for these tokens, so it says only what
 * a model gets wrong without being told; docs/operations.md has the full rules. A unit test parses the example.
 */
export const OPERATION_FORMAT_PROMPT = `Answer with edit operations: a header line, then a fenced block of raw code.

REPLACE_ELEMENT <path>  (whole element, with JSDoc and decorators)
CREATE_ELEMENT <container or file> FIRST_CHILD|LAST_CHILD|BEFORE <sibling>|AFTER <sibling> [KIND=<kind>]
DELETE_ELEMENT <path> / RENAME_ELEMENT <path> <newName>  (no code; renames uses too)
PATCH_ELEMENT <path>  (SEARCH/REPLACE pairs; each SEARCH copies lines of the element exactly, once)
ADD_IMPORT <file> / REMOVE_IMPORT <file>  (one import declaration)
CREATE_FILE <file> / REPLACE_FILE <file>  (whole file; REPLACE_FILE only if no element operation fits)

Paths: <file>/<kind>[<name>]/..., e.g. src/user.ts/class[User]/method[validate].
- PATCH_ELEMENT for small changes in large elements. Never elide code ("// ... existing code ...").
- Operations apply in order. Content holding \`\`\` lines takes a longer fence (\`\`\`\`).

Example:
REPLACE_ELEMENT src/user.ts/class[User]/method[validate]
\`\`\`ts
validate(input: string) {
  return input !== '';
}
\`\`\`
CREATE_ELEMENT src/user.ts/class[User] AFTER method[validate]
\`\`\`ts
reset(): void {}
\`\`\`
PATCH_ELEMENT src/user.ts/class[User]/method[save]
\`\`\`ts
<<<<<<< SEARCH
const retries = 1;
=======
const retries = 3;
>>>>>>> REPLACE
\`\`\`
`;
