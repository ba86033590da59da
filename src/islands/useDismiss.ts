import { useEffect, type RefObject } from 'react';

/**
 * Closes an open header panel (account menu, area list, notice bell) when the visitor presses
 * outside it, or presses Escape — then focus goes back to the button that opened it.
 * `escapeCloses: false` leaves Escape to something inside the panel (a confirmation dialog).
 */
export function useDismiss(
  open: boolean,
  setOpen: (open: boolean) => void,
  rootRef: RefObject<HTMLElement | null>,
  buttonRef: RefObject<HTMLElement | null>,
  escapeCloses = true,
): void {
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !escapeCloses) return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, setOpen, escapeCloses, rootRef, buttonRef]);
}
