/**
 * The HTTP SMS provider: hands each message to an SMS gateway over HTTP(S), configured from the
 * environment (SMS_HTTP_URL, SMS_HTTP_KEY, SMS_HTTP_TIMEOUT_MS; README, docs/api-plumbing.md).
 *
 * Protocol: `POST <url>` with `Content-Type: application/json`, `Authorization: Bearer <key>`
 * (when a key is set), an `Idempotency-Key` per message, and the body
 * `{ "phone": "13800138000", "content": "【汇购电】…", "purpose": "login" }`. The gateway accepted
 * the message when it answers 2xx and, if its body is JSON with a `code` field, that code is
 * 0 / "0" / "OK" (the usual shape of Chinese SMS gateways, which answer HTTP 200 with a business
 * code). Anything else — another status, another code, no answer within the timeout, a network
 * error — rejects, and the caller withdraws the code (sms.sendFailed, 503).
 *
 * Nothing here logs the phone, the text or the key: the error carries the status and the
 * gateway's own code/message only.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { SmsMessage, SmsProvider } from './provider.ts';

export interface HttpProviderOptions {
  url: string;
  key?: string | undefined;
  timeoutMs: number;
  /** For tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  /** Where a refused or failed send is reported (status and gateway code only). */
  logger?: Pick<Logger, 'warn'> | undefined;
}

export class SmsGatewayError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SmsGatewayError';
    this.status = status;
  }
}

const acceptedCodes = new Set(['0', 'ok']);

/** The gateway's business code, when its body is JSON and carries one. */
function businessCode(text: string): { code: string; message: string } | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === 'object' && 'code' in body) {
      const { code, message, msg } = body as { code: unknown; message?: unknown; msg?: unknown };
      const said = typeof message === 'string' ? message : typeof msg === 'string' ? msg : '';
      return { code: String(code), message: said.slice(0, 200) };
    }
  } catch {
    // Not JSON: a 2xx is acceptance enough.
  }
  return undefined;
}

export function createHttpProvider(options: HttpProviderOptions): SmsProvider {
  const send = options.fetch ?? fetch;
  return {
    name: 'http',
    async send(message: SmsMessage) {
      try {
        await deliver(message);
      } catch (error) {
        const failure = error as SmsGatewayError;
        options.logger?.warn({ provider: 'http', status: failure.status, purpose: message.purpose }, failure.message);
        throw error;
      }
    },
  };

  async function deliver(message: SmsMessage): Promise<void> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'Idempotency-Key': randomUUID(),
    };
    if (options.key) headers['Authorization'] = `Bearer ${options.key}`;
    let response: Response;
    let text: string;
    try {
      response = await send(options.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ phone: message.phone, content: message.text, purpose: message.purpose }),
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new SmsGatewayError(
        timedOut ? `SMS gateway gave no answer within ${options.timeoutMs} ms` : 'SMS gateway unreachable',
        undefined,
        { cause: error },
      );
    }
    if (!response.ok) throw new SmsGatewayError(`SMS gateway answered HTTP ${response.status}`, response.status);
    const business = businessCode(text);
    if (business && !acceptedCodes.has(business.code.toLowerCase())) {
      throw new SmsGatewayError(
        `SMS gateway refused the message: code ${business.code} ${business.message}`.trim(),
        response.status,
      );
    }
  }
}

/** The HTTP provider when SMS_HTTP_URL is set, else undefined (the app falls back to the outbox). */
export function httpProviderFromConfig(
  config: Pick<Config, 'smsHttpUrl' | 'smsHttpKey' | 'smsHttpTimeoutMs'>,
  logger?: Pick<Logger, 'warn'>,
): SmsProvider | undefined {
  if (!config.smsHttpUrl) return undefined;
  return createHttpProvider({
    url: config.smsHttpUrl,
    key: config.smsHttpKey,
    timeoutMs: config.smsHttpTimeoutMs,
    logger,
  });
}
