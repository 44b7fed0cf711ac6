/** The conversation of `@scalpel`: what the model saw of each file in the current chat session (issue 11). */
export const CHAT_CONVERSATION = 'chat';
