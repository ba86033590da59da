import { useState } from 'react';

/**
 * A value being edited from a value given from outside (the period a page shows): the draft is
 * reset to `value` whenever `key` (what the given value is, as text) changes, and is the reader's
 * own in between. The reset happens while rendering, as React advises for state derived from
 * props, not in an effect (which would first render the stale draft once more).
 */
export function useDraft<T>(value: T, key: string): [T, (next: T) => void] {
  const [draft, setDraft] = useState(value);
  const [draftKey, setDraftKey] = useState(key);
  if (draftKey !== key) {
    setDraftKey(key);
    setDraft(value);
  }
  return [draft, setDraft];
}
