import type { EnterpriseData } from '../../lib/schemas/enterprise.ts';
import type { CertifyMessages } from './certifyMessages.ts';
import { authStatusWord } from './enterpriseCalls.ts';
import StatusBadge from '../StatusBadge.tsx';

interface Props {
  enterprise: Pick<EnterpriseData, 'authStatus' | 'authType'>;
  messages: CertifyMessages;
}

/**
 * "认证状态 [已认证] · U盾认证": the status as a badge and how it was reached. A live region, so a
 * change made on the page (submitted, certified, removed) is announced.
 */
export default function StatusLine({ enterprise, messages: m }: Props) {
  return (
    <p role="status" className="flex flex-wrap items-center gap-x-2 text-sm">
      <span className="text-muted">{m['certify.field.authStatus']}</span>
      <StatusBadge kind="auth" status={enterprise.authStatus} label={authStatusWord(enterprise.authStatus, m)} />
      {enterprise.authType && <span>· {m[`certify.authType.${enterprise.authType}`]}</span>}
    </p>
  );
}

/** The operator's comment on a returned certification, labelled in the page's language. */
export function ReviewComment({ comment, messages: m }: { comment: string; messages: CertifyMessages }) {
  return (
    <div role="alert" className="alert alert-error text-sm">
      <div>
        <p className="font-semibold">{m['certify.field.reviewComment']}</p>
        <p className="whitespace-pre-line">{comment}</p>
      </div>
    </div>
  );
}
