import * as vscode from 'vscode';

/**
 * Virtual, read-only documents holding the text a pending edit proposes: `scalpel-proposed:/<edit id>/<path>`.
 * They sit on the right of the preview's diff; `?original` is the empty left side of a file the edit creates.
 */
export const PROPOSED_SCHEME = 'scalpel-proposed';

export interface ProposedTarget {
  readonly editId: string;
  readonly path: string;
  readonly original: boolean;
}

export function proposedUri(editId: string, path: string, original = false): vscode.Uri {
  return vscode.Uri.from({
    scheme: PROPOSED_SCHEME,
    path: `/${editId}/${path}`,
    ...(original ? { query: 'original' } : {}),
  });
}

export function parseProposedUri(uri: vscode.Uri): ProposedTarget | undefined {
  if (uri.scheme !== PROPOSED_SCHEME) return undefined;
  const match = /^\/([^/]+)\/(.+)$/.exec(uri.path);
  if (match === null || match[1] === undefined || match[2] === undefined) return undefined;
  return { editId: match[1], path: match[2], original: uri.query === 'original' };
}
