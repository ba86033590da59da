/** An item's state badge in the studio's lists: the state in words, in its tone (src/lib/statusBadges.ts). */
import type { ItemState } from '../../lib/api/studio.ts';
import { statusBadgeClass } from '../../lib/statusBadges.ts';
import type { StudioMessages } from '../../lib/studio/messages.ts';

/** An item's state in words, on its colour (the colour alone never carries it). */
export default function StateBadge({ state, messages }: { state: ItemState; messages: StudioMessages }) {
  return (
    <span className={statusBadgeClass('item', state)} data-state={state}>
      {messages[`studio.state.${state}`]}
    </span>
  );
}
