/**
 * The log's error serializer (src/server/logger.ts safeError): an outage of the database or the
 * object store is named by its code, without a stack, wherever it is logged (a request, a
 * heartbeat, a poll); any other error keeps its stack frames.
 */
import { describe, expect, it } from 'vitest';
import { DatabaseDeadlineError } from '../../src/server/db/errors.ts';
import { safeError } from '../../src/server/logger.ts';
import { ObjectStoreUnavailableError } from '../../src/server/storage/objectStore.ts';

describe('safeError', () => {
  it('names an outage by its code, without a stack, also when a driver error wraps it', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('Failed query: insert into "site_nodes" …', { cause: refused });
    expect(safeError(wrapped)).toEqual({ type: 'Error', outage: 'database', code: 'ECONNREFUSED' });
    expect(safeError(new DatabaseDeadlineError(2000))).toEqual({
      type: 'DatabaseDeadlineError',
      outage: 'database',
      code: 'STATEMENT_DEADLINE',
    });
    const store = new ObjectStoreUnavailableError(
      'Object storage: no answer from bucket "b" to a get within 5000 ms (S3_TIMEOUT_MS)',
    );
    expect(safeError(store)).toEqual({
      type: 'ObjectStoreUnavailableError',
      outage: 'object store',
      message: store.message,
    });
  });

  it('keeps the stack of any other error', () => {
    const described = safeError(new Error('a bug'));
    expect(described['type']).toBe('Error');
    expect(described['stack']).toBeDefined();
    expect(described['outage']).toBeUndefined();
  });
});
