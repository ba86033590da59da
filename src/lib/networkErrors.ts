/**
 * The codes Node gives a connection that failed: the service never answered (refused, reset, no
 * route, a name that does not resolve, a timeout), each with what it means to an operator. Read by
 * the outage answers (server/db/errors.ts, server/storage/s3Store.ts) and the configuration check (server/preflight.ts).
 */
export const networkFailures: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'its host is unreachable',
  ENETUNREACH: 'its network is unreachable',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  ECONNABORTED: 'the connection was closed',
};

export const isNetworkFailure = (code: string | undefined): boolean => code !== undefined && code in networkFailures;
