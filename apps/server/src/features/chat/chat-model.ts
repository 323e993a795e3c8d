/**
 * An OpenAI-compatible chat completions endpoint (`CHAT_LLM_URL`), asked to phrase an answer from the passages the
 * retrieval found (decision 0031). Never required: without it, or when it fails or is late, the caller composes the
 * answer from the passages itself.
 */

export type ChatModelConfig = { url: string; model: string; apiKey: string | undefined; timeoutMs: number };
export type ChatModelMessage = { role: 'system' | 'user' | 'assistant'; content: string };
export type ChatModel = {
  readonly name: string;
  /** The model's answer, or null when it failed, was late or said nothing (the reason goes to `onFailure`). */
  complete(messages: ChatModelMessage[], onFailure: (reason: string) => void): Promise<string | null>;
};

/** The most bytes of an answer read from the endpoint: an answer of a few paragraphs is far below. */
export const MODEL_RESPONSE_MAX_BYTES = 256 * 1024;
/** The longest answer kept (characters). */
const ANSWER_MAX_CHARS = 8000;

/** `…/v1` or `…/v1/chat/completions` alike: the endpoint the request goes to. */
export function completionsUrl(base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  if (trimmed.endsWith('/chat/completions')) return trimmed;
  return trimmed.endsWith('/v1') ? `${trimmed}/chat/completions` : `${trimmed}/v1/chat/completions`;
}

/** The body as text, refused once it passes `max` bytes (a misbehaving endpoint cannot fill the memory). */
async function readCapped(response: Response, max: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > max) return null;
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function contentOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const choices = (body as { choices?: unknown }).choices;
  if (!Array.isArray(choices) || !choices.length) return null;
  const message = (choices[0] as { message?: { content?: unknown } } | undefined)?.message;
  return typeof message?.content === 'string' ? message.content : null;
}

export function createChatModel(config: ChatModelConfig): ChatModel {
  const url = completionsUrl(config.url);
  return {
    name: config.model,
    async complete(messages, onFailure) {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: config.model, messages, temperature: 0.2, stream: false }),
          signal: AbortSignal.timeout(config.timeoutMs),
          redirect: 'error',
        });
        const text = await readCapped(response, MODEL_RESPONSE_MAX_BYTES);
        if (!response.ok) {
          onFailure(`HTTP ${response.status}`);
          return null;
        }
        if (text === null) {
          onFailure(`answer over ${MODEL_RESPONSE_MAX_BYTES} bytes`);
          return null;
        }
        const content = contentOf(JSON.parse(text))?.trim();
        if (!content) {
          onFailure('no answer in the response');
          return null;
        }
        return content.slice(0, ANSWER_MAX_CHARS);
      } catch (error) {
        const name = error instanceof Error ? error.name : '';
        onFailure(
          name === 'TimeoutError' ? `no answer within ${config.timeoutMs} ms` : `${name || 'error'}: ${String(error)}`,
        );
        return null;
      }
    },
  };
}
