import { useEffect, useState } from 'react';
import { format } from '../../lib/api/messages.ts';
import type { OrderGuideData } from '../../lib/schemas/order.ts';
import { LoadFailed, Loading } from '../LoadStatus.tsx';
import { callQuiet } from '../quietCall.ts';
import { ORDER_API } from './orderView.ts';
import type { WizardMessages } from './orderWizard.ts';

interface Props {
  messages: WizardMessages;
  onChoose: (sellingSetId: string) => void;
}

type Loaded = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; guide: OrderGuideData };

/**
 * The ordering guide (getListByGuideType): the packages on sale today in the enterprise's area,
 * grouped by product, for a visitor who came to /handle/order without choosing one on a set page.
 */
export default function SetGuide({ messages, onChoose }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    // Starts as loading; a retry shows loading first (below).
    void callQuiet<OrderGuideData>('GET', `${ORDER_API}/getListByGuideType`).then((answer) => {
      if (!live) return;
      if (answer?.ok) setLoaded({ state: 'ready', guide: answer.data });
      else setLoaded({ state: 'failed', message: answer?.message || messages['ordering.loadFailed'] });
    });
    return () => {
      live = false;
    };
  }, [attempt, messages]);

  if (loaded.state === 'loading') return <Loading label={messages['common.loading']} />;
  if (loaded.state === 'failed') {
    const retry = () => {
      setLoaded({ state: 'loading' });
      setAttempt((n) => n + 1);
    };
    return <LoadFailed message={loaded.message} retryLabel={messages['ordering.retry']} onRetry={retry} />;
  }
  const products = loaded.guide.filter((product) => product.sets.some((set) => set.sellingSets.length > 0));
  if (products.length === 0)
    return (
      <p role="status" className="text-base-content/70">
        {messages['ordering.guide.empty']}
      </p>
    );

  return (
    <div className="grid gap-6">
      {products.map((product) => (
        <section key={product.productId} aria-labelledby={`guide-${product.productId}`} className="grid gap-3">
          <h3 id={`guide-${product.productId}`} className="text-lg font-semibold">
            {product.productName}
          </h3>
          <ul className="grid gap-3 md:grid-cols-2">
            {product.sets.flatMap((set) =>
              set.sellingSets.map((selling) => (
                <li key={selling.sellingSetId} className="card border border-base-300 bg-base-100">
                  <div className="card-body gap-2 p-4">
                    <p className="font-semibold">{set.name}</p>
                    <p className="text-sm text-base-content/70">{set.summary}</p>
                    <p className="text-sm">{selling.orgComName}</p>
                    <p className="text-xs text-muted">
                      {format(messages['ordering.guide.validRange'], { from: selling.validFrom, to: selling.validTo })}
                    </p>
                    <div className="card-actions justify-end">
                      <button
                        type="button"
                        className="btn btn-primary btn-sm"
                        aria-label={format(messages['ordering.guide.chooseLabel'], {
                          orgCom: selling.orgComName,
                          set: set.name,
                        })}
                        onClick={() => onChoose(selling.sellingSetId)}
                      >
                        {messages['ordering.guide.choose']}
                      </button>
                    </div>
                  </div>
                </li>
              )),
            )}
          </ul>
        </section>
      ))}
    </div>
  );
}
