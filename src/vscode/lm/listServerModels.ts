/**
 * Asks an OpenAI-compatible server (a local Ollama, an endpoint being set up) which models it offers (`GET /models`,
 * with the key when there is one), with a plain fetch: the model picker asks during activation, when the engine and
 * its SDKs must not load. A server that does not answer quickly is treated as absent.
 */
export async function listServerModels(
  baseUrl: string,
  timeoutMs: number,
  apiKey?: string,
): Promise<string[] | undefined> {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        accept: 'application/json',
        ...(apiKey === undefined || apiKey === '' ? {} : { authorization: `Bearer ${apiKey}` }),
      },
    });
    if (!response.ok) return undefined;
    const body = (await response.json()) as unknown;
    const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
    if (!Array.isArray(data)) return undefined;
    return data
      .map((entry: unknown) =>
        typeof entry === 'object' && entry !== null ? (entry as { id?: unknown }).id : undefined,
      )
      .filter((id): id is string => typeof id === 'string' && id !== '');
  } catch {
    return undefined;
  }
}
