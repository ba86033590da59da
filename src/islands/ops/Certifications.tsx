import { useCallback, useEffect, useState } from 'react';
import { post } from '../../lib/api/client.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { EnterpriseRowData } from '../../lib/schemas/enterprise.ts';
import type { TableAnswer } from '../../lib/schemas/table.ts';
import { updateTableQuery } from '../../lib/tableRequest.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import { useSessionReady } from '../useSessionReady.ts';
import type { ValidationMessages } from '../auth/formValidation.ts';
import type { Option } from '../enterprise/SelectField.tsx';
import type { CertifyMessages } from '../enterprise/certifyMessages.ts';
import { ENTERPRISE_TABLE_URL } from '../enterprise/enterpriseCalls.ts';
import CertificationQueueTable from './CertificationQueueTable.tsx';
import CertificationReview from './CertificationReview.tsx';
import { queueRequest, readQueueAddress, writeQueueAddress, type QueueAddress } from './certificationQueue.ts';

interface Props {
  locale: Locale;
  messages: CertifyMessages;
  validation: ValidationMessages;
  voltageLevels: readonly Option[];
}

type Page = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; rows: EnterpriseRowData[]; total: number };

/**
 * The operator's review queue (/ops/certifications): enterprises under review, oldest first, and
 * one of them in detail with its files, to approve or return with a comment.
 */
export default function Certifications({ locale, messages: m, validation, voltageLevels }: Props) {
  const [address, setAddress] = useState<QueueAddress>(() =>
    typeof window === 'undefined' ? readQueueAddress('') : readQueueAddress(window.location.search),
  );
  const [page, setPage] = useState<Page>({ state: 'loading' });
  const ready = useSessionReady();

  const go = (next: QueueAddress) => {
    window.history.pushState(null, '', `${window.location.pathname}${writeQueueAddress(next)}`);
    setAddress(next);
  };

  useEffect(() => {
    const onPop = () => setAddress(readQueueAddress(window.location.search));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const load = useCallback(async () => {
    setPage({ state: 'loading' });
    const answer = await post<TableAnswer<EnterpriseRowData>>(ENTERPRISE_TABLE_URL, { antTable: queueRequest(address.table) });
    setPage(answer ? { state: 'ready', rows: answer.result, total: answer.totalCount } : { state: 'failed' });
  }, [address.table]);

  useEffect(() => {
    if (ready && address.id === undefined) void load();
  }, [ready, address.id, load]);

  if (!ready) return <Loading label={m['common.loading']} />;
  if (address.id !== undefined) {
    return (
      <CertificationReview
        id={address.id}
        locale={locale}
        messages={m}
        validation={validation}
        voltageLevels={voltageLevels}
        onBack={() => go({ ...address, id: undefined })}
      />
    );
  }
  if (page.state === 'loading') return <Loading label={m['common.loading']} />;
  if (page.state === 'failed') {
    return <LoadFailed message={m['certify.common.loadFailed']} retryLabel={m['certify.common.retry']} onRetry={() => void load()} />;
  }
  return (
    <CertificationQueueTable
      rows={page.rows}
      total={page.total}
      table={address.table}
      locale={locale}
      messages={m}
      onSearch={(keyword) => go({ id: undefined, table: updateTableQuery(address.table, { keyword }) })}
      onPage={(current) => go({ id: undefined, table: updateTableQuery(address.table, { page: current }) })}
      onReview={(id) => go({ ...address, id })}
    />
  );
}
