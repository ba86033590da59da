/**
 * Order states and who may move an order between them (DOMAIN.md, States). Pure and shared: the
 * server's state machine refuses anything not listed here, and the pages offer only what is.
 * Codes are the project's own; every locale shows them as words (`orderStatus.<code>`).
 */
export const orderStatuses = [10, 20, 30, 40, 90, 91] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const OrderStatusCode = {
  SUBMITTED: 10,
  ACCEPTED: 20,
  IN_FORCE: 30,
  COMPLETED: 40,
  CANCELLED: 90,
  REJECTED: 91,
} as const satisfies Record<string, OrderStatus>;

export const orderActions = ['accept', 'confirm', 'complete', 'cancel', 'reject'] as const;
export type OrderAction = (typeof orderActions)[number];

export type OrderActor = 'enterprise' | 'operator' | 'system';

interface Transition {
  action: OrderAction;
  from: readonly OrderStatus[];
  to: OrderStatus;
  actors: readonly OrderActor[];
  /** A cancel by the operator and a reject must say why. */
  reasonRequiredFor: readonly OrderActor[];
}

export const orderTransitions: readonly Transition[] = [
  { action: 'accept', from: [10], to: 20, actors: ['operator'], reasonRequiredFor: [] },
  { action: 'confirm', from: [20], to: 30, actors: ['operator'], reasonRequiredFor: [] },
  { action: 'complete', from: [30], to: 40, actors: ['operator', 'system'], reasonRequiredFor: [] },
  { action: 'reject', from: [10], to: 91, actors: ['operator'], reasonRequiredFor: ['operator'] },
  // The enterprise may cancel only while submitted; the operator also once accepted.
  { action: 'cancel', from: [10], to: 90, actors: ['enterprise'], reasonRequiredFor: [] },
  { action: 'cancel', from: [10, 20], to: 90, actors: ['operator'], reasonRequiredFor: ['operator'] },
];

/** The transition `actor` may make with `action` from `status`, or undefined when it is not allowed. */
export function findTransition(status: number, action: OrderAction, actor: OrderActor): Transition | undefined {
  return orderTransitions.find(
    (t) => t.action === action && t.actors.includes(actor) && (t.from as readonly number[]).includes(status),
  );
}

/** The actions `actor` may take on an order in `status`, in table order. */
export function allowedActions(status: number, actor: OrderActor): OrderAction[] {
  return [
    ...new Set(
      orderTransitions
        .filter((t) => t.actors.includes(actor) && (t.from as readonly number[]).includes(status))
        .map((t) => t.action),
    ),
  ];
}

/** The actions that must say why when the operator takes them (`reasonRequiredFor` above). */
export const operatorReasonActions: readonly OrderAction[] = ['cancel', 'reject'];

/** Longest reason an operator or an enterprise may give with a cancel or reject. */
export const reasonMaxLength = 500;

/** Deleting (hiding from the owner) is allowed for cancelled and rejected orders only. */
export function canDeleteOrder(status: number): boolean {
  return status === OrderStatusCode.CANCELLED || status === OrderStatusCode.REJECTED;
}
