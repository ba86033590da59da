import type { ItemState } from './studioApi.ts';
import { stateBadge, type StudioMessages } from './studioMessages.ts';

/** An item's state in words, on its colour (the colour alone never carries it). */
export default function StateBadge({ state, messages }: { state: ItemState; messages: StudioMessages }) {
  return (
    <span className={`badge ${stateBadge[state]} whitespace-nowrap`} data-state={state}>
      {messages[`studio.state.${state}`]}
    </span>
  );
}
