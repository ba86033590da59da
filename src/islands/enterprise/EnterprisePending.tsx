import type { Locale } from '../../lib/i18n/locales.ts';
import { localePath } from '../../lib/paths.ts';
import EmptyState from '../EmptyState.tsx';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import type { CertifyMessages } from './certifyMessages.ts';
import type { OwnEnterpriseView } from './useOwnEnterprise.ts';

interface Props {
  view: Exclude<OwnEnterpriseView, { state: 'ready' }>;
  locale: Locale;
  messages: CertifyMessages;
  onRetry: () => void;
}

/**
 * What a certification page shows until the user's enterprise is there (useOwnEnterprise): the
 * loading state, the failure with a retry, or, for a user without an enterprise, the way to
 * create one.
 */
export default function EnterprisePending({ view, locale, messages: m, onRetry }: Props) {
  if (view.state === 'loading') return <Loading label={m['common.loading']} />;
  if (view.state === 'failed') {
    return (
      <LoadFailed message={m['certify.common.loadFailed']} retryLabel={m['certify.common.retry']} onRetry={onRetry} />
    );
  }
  return (
    <EmptyState
      role="status"
      title={m['certify.record.noneTitle']}
      message={m['certify.status.noEnterprise']}
      action={{ href: localePath(locale, '/person/enterprise'), label: m['certify.status.toEnterprise'] }}
    />
  );
}
