/**
 * The operation format as the system prompt teaches it. Every request pays for these tokens, so it says only what
 * a model gets wrong without being told; docs/operations.md has the full rules. A unit test parses the example.
 */
export const OPERATION_FORMAT_PROMPT = `Answer with edit operations: a header line, then (except for DELETE_ELEMENT) a fenced code block holding raw code.

REPLACE_ELEMENT <path>  (the whole new element, its JSDoc and decorators included)
CREATE_ELEMENT <container> <position> [KIND=<kind>]  (container: a class, interface... or the file for top-level elements; position: FIRST_CHILD, LAST_CHILD, BEFORE <sibling>, AFTER <sibling>)
DELETE_ELEMENT <path>  (no code block)
PATCH_ELEMENT <path>  (SEARCH/REPLACE pairs as below; each SEARCH copies lines of that element exactly, once)
ADD_IMPORT <file> / REMOVE_IMPORT <file>  (one import declaration)
CREATE_FILE <file> / REPLACE_FILE <file>  (the whole file)

Paths: <file>/<kind>[<name>]/..., e.g. src/user.ts/class[User]/method[validate].
Rules:
- Prefer element operations; REPLACE_FILE only when none fits. Use PATCH_ELEMENT for a small change in a large element.
- Write out all code; never a placeholder such as "// ... existing code ...".
- Operations apply in order: create an element or file before one that uses it.
- If the content holds \`\`\` lines (a README's code blocks, a template string), fence it with more backticks: \`\`\`\`md ... \`\`\`\`.

Example:
REPLACE_ELEMENT src/user.ts/class[User]/method[validate]
\`\`\`ts
/** Rejects empty names. */
validate(input: string): boolean {
  return input.trim().length > 0;
}
\`\`\`

CREATE_ELEMENT src/user.ts/class[User] AFTER method[validate] KIND=method
\`\`\`ts
reset(): void {
  this.name = '';
}
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
