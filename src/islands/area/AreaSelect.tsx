import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { areaCode as storedCode, areaName as storedName } from '../../stores/area.ts';
import { format } from '../../lib/api/index.ts';
import { useMountedSignal } from '../useMountedSignal.ts';
import { useDismiss } from '../useDismiss.ts';
import {
  chooseArea,
  destinationFor,
  type AreaSelectMessages,
  type Province,
  type ProvinceOption,
} from './areaSelect.ts';

interface Props {
  /** The region the page shows (region-varying pages) or the default one (shared pages). */
  current: ProvinceOption;
  provinces: readonly ProvinceOption[];
  /** The page's counterpart in every region; absent on pages that are the same everywhere. */
  regionLinks?: Readonly<Record<string, string>> | undefined;
  messages: AreaSelectMessages;
}

/**
 * The header's province selector: a disclosure button and a list of the provinces. The closed
 * state is server-rendered; the island hydrates on intent (`client:intent`). On shared pages a
 * few inline lines put the stored area's name into the button before paint, hence
 * `suppressHydrationWarning` on that one text node.
 */
export default function AreaSelect({ current, provinces, regionLinks, messages }: Props) {
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<Province | null>(null);
  const [failed, setFailed] = useState(false);
  useMountedSignal(rootRef);

  useDismiss(open, setOpen, rootRef, buttonRef);
  // Opening the list puts focus on the current region.
  useEffect(() => {
    if (open) rootRef.current?.querySelector<HTMLButtonElement>('[aria-current="true"]')?.focus();
  }, [open]);

  async function choose(province: Province) {
    setBusy(province);
    setFailed(false);
    const confirmed = await chooseArea(province.areaCode);
    if (!confirmed) {
      setBusy(null);
      setFailed(true);
      return;
    }
    window.location.assign(destinationFor(confirmed.areaCode, regionLinks, window.location));
  }

  // Region pages show their own region (the pre-paint rule already moved a visitor of another
  // one); shared pages show the stored choice.
  const stored = { areaCode: useStore(storedCode), areaName: useStore(storedName) };
  const active = regionLinks ? current : stored;
  const shown = provinces.find((province) => province.areaCode === active.areaCode)?.shortName ?? active.areaName;
  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-sm gap-1 whitespace-nowrap"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        data-area-button
        onClick={() => setOpen((value) => !value)}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-4"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z" />
          <circle cx="12" cy="9.5" r="2.5" />
        </svg>
        <span className="sr-only">{messages['site.area.button']}</span>
        {/* In care mode a phone's header has no room for the name beside the larger controls: it is still read. */}
        <span data-area-name className="care:max-sm:sr-only" suppressHydrationWarning>
          {shown}
        </span>
      </button>
      {open && (
        <div id={listId} className="absolute right-0 z-20 mt-1 w-56 rounded-box bg-base-100 p-2 shadow-lg">
          <p className="px-2 pb-1 text-xs text-base-content/70" id={`${listId}-label`}>
            {messages['site.area.listLabel']}
          </p>
          <ul className="menu w-full p-0" aria-labelledby={`${listId}-label`}>
            {provinces.map((province) => (
              <li key={province.areaCode}>
                <button
                  type="button"
                  disabled={busy !== null}
                  aria-current={province.areaCode === active.areaCode ? 'true' : undefined}
                  className={province.areaCode === active.areaCode ? 'menu-active' : undefined}
                  onClick={() => void choose(province)}
                >
                  {province.areaName}
                </button>
              </li>
            ))}
          </ul>
          <p role="status" className="px-2 pt-1 text-xs text-base-content/70">
            {busy
              ? format(messages['site.area.switching'], { name: busy.areaName })
              : failed
                ? messages['site.area.failed']
                : ''}
          </p>
        </div>
      )}
    </div>
  );
}
