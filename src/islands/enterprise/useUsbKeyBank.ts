import { useEffect, useState } from 'react';
import type { UsbKeyBankData } from '../../lib/enterpriseCertification.ts';
import { bankGet } from './bankCall.ts';
import { USB_KEY_BANK_URL } from './enterpriseCalls.ts';

/**
 * The bank behind USB-key certification (GET getUsbKeyBank), asked once when the page opens:
 * `undefined` while asking, `null` when the answer did not come (the page then offers the flow
 * and lets the server's answers speak), else the answer — the sandbox of demo mode, or none.
 */
export function useUsbKeyBank(): UsbKeyBankData | null | undefined {
  const [bank, setBank] = useState<UsbKeyBankData | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void bankGet<UsbKeyBankData>(USB_KEY_BANK_URL, {}).then((outcome) => {
      if (live) setBank(outcome?.ok ? outcome.data : null);
    });
    return () => {
      live = false;
    };
  }, []);
  return bank;
}
