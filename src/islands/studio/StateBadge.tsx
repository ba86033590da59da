/** An item's state badge in the studio's lists: the state in words, on its daisyUI colour. */
import type { ItemState } from '../../lib/api/studio.ts';
import type { StudioMessages } from '../../lib/studio/messages.ts';

/** The daisyUI colour of a state; the state is always also written in words beside it. */
const stateBadge: Readonly<Record<ItemState, string>> = {
  published: 'badge-success',
  changed: 'badge-warning',
  new: 'badge-info',
  deleted: 'badge-error',
};

/** An item's state in words, on its colour (the colour alone never carries it). */
export default function StateBadge({ state, messages }: { state: ItemState; messages: StudioMessages }) {
  return (
    <span className={`badge ${stateBadge[state]} whitespace-nowrap`} data-state={state}>
      {messages[`studio.state.${state}`]}
    </span>
  );
}
