import { useEffect, useState } from 'react';
import type { Locale } from '../../../lib/i18n/locales.ts';
import type { PartnerTreeNode } from '../../../lib/schemas/partner.ts';
import { Loading, LoadFailed } from '../../LoadStatus.tsx';
import PartnerTree from '../PartnerTree.tsx';
import { findNode, idFromText } from '../partnerTree.ts';
import { OutOfScopeNotice, outsideScope } from '../OutOfScope.tsx';
import { usePartnerTree } from '../usePartnerTree.ts';
import InstitutionPanel from './InstitutionPanel.tsx';
import { addressWith, type OrganizationMessages } from './organization.ts';

interface Props {
  locale: Locale;
  messages: OrganizationMessages;
}

function idFromAddress(): number | undefined {
  return idFromText(new URLSearchParams(window.location.search).get('partnerId'));
}

/**
 * The visible institutions (/partner/organization): the tree on one side (WAI-ARIA tree, keys
 * per PartnerTree), the chosen institution's details and staff relations on the other. The chosen
 * one is in the address; without one the first root is shown; one outside the user's scope is
 * said as such, with their own institution offered (OutOfScope.tsx), never silently replaced.
 */
export default function Organization({ locale, messages }: Props) {
  const tree = usePartnerTree();
  const [requested, setRequested] = useState<number | undefined>(undefined);

  useEffect(() => {
    const read = () => setRequested(idFromAddress());
    read();
    window.addEventListener('popstate', read);
    return () => window.removeEventListener('popstate', read);
  }, []);

  if (tree.load.state === 'loading') return <Loading label={messages['common.loading']} />;
  if (tree.load.state === 'failed') {
    return (
      <LoadFailed
        message={tree.load.message || messages['settlement.tree.loadFailed']}
        retryLabel={messages['settlement.tree.retry']}
        onRetry={tree.reload}
      />
    );
  }
  const roots = tree.load.roots;
  if (roots.length === 0) return <p className="alert">{messages['settlement.tree.empty']}</p>;

  const outside = outsideScope(tree.load, [requested]).length > 0;
  const chosen: PartnerTreeNode | undefined = outside
    ? undefined
    : ((requested === undefined ? undefined : findNode(roots, requested)) ?? roots[0]);
  const choose = (node: PartnerTreeNode) => {
    if (node.id === chosen?.id) return;
    window.history.pushState(null, '', addressWith(node.id));
    setRequested(node.id);
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(16rem,22rem)_1fr]">
      <div className="max-h-[70vh] overflow-auto rounded-box border border-base-300 p-2">
        <PartnerTree
          roots={roots}
          label={messages['settlement.tree.label']}
          selectedId={chosen?.id}
          onSelect={choose}
          messages={messages}
        />
      </div>
      {outside ? (
        <OutOfScopeNotice roots={roots} messages={messages} onOwn={choose} />
      ) : chosen ? (
        <InstitutionPanel key={chosen.id} partnerId={chosen.id} locale={locale} messages={messages} />
      ) : (
        <p>{messages['settlement.org.choose']}</p>
      )}
    </div>
  );
}
