import { useState } from 'react';
import ConfirmDialog from '../ConfirmDialog.tsx';
import type { CertifyMessages } from './certifyMessages.ts';

interface Props {
  /** The button's and the dialog's confirming label ("删除企业", "解除绑定"). */
  label: string;
  title: string;
  body: string;
  messages: CertifyMessages;
  /** The removal itself; the dialog stays open and busy until it has answered. */
  onRemove: () => Promise<void>;
}

/** A destructive action of the enterprise pages: the button, and the confirmation it asks first. */
export default function RemoveButton({ label, title, body, messages: m, onRemove }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    setBusy(true);
    await onRemove();
    setBusy(false);
    setConfirming(false);
  };

  return (
    <>
      <button type="button" className="btn btn-error btn-outline btn-sm" onClick={() => setConfirming(true)}>
        {label}
      </button>
      <ConfirmDialog
        open={confirming}
        title={title}
        body={body}
        confirmLabel={label}
        cancelLabel={m['certify.common.cancel']}
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
