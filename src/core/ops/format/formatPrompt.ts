/**
 * The operation format as the system prompt teaches it. Every request pays for these tokens, so it says only what
 * a model gets wrong without being told; docs/operations.md has the full rules. A unit test parses the example.
 */
export const OPERATION_FORMAT_PROMPT = `Answer with edit operations: a header line, then a fenced code block of raw code (none for DELETE_ELEMENT).

REPLACE_ELEMENT <path>  (the whole element, JSDoc and decorators included)
CREATE_ELEMENT <container or file> FIRST_CHILD|LAST_CHILD|BEFORE <sibling>|AFTER <sibling> [KIND=<kind>]
DELETE_ELEMENT <path>
PATCH_ELEMENT <path>  (SEARCH/REPLACE pairs; each SEARCH copies lines of the element exactly, once)
ADD_IMPORT <file> / REMOVE_IMPORT <file>  (one import declaration)
CREATE_FILE <file> / REPLACE_FILE <file>  (the whole file; REPLACE_FILE only when no element operation fits)

Paths: <file>/<kind>[<name>]/..., e.g. src/user.ts/class[User]/method[validate].
- PATCH_ELEMENT for a small change in a large element. Write out all code, never "// ... existing code ...".
- Operations apply in order. Content holding \`\`\` lines takes a longer fence (\`\`\`\`).

Example:
REPLACE_ELEMENT src/user.ts/class[User]/method[validate]
\`\`\`ts
validate(input: string): boolean {
  return input.trim().length > 0;
}
\`\`\`
CREATE_ELEMENT src/user.ts/class[User] AFTER method[validate] KIND=method
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
