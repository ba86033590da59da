/**
 * The ordering steps (/handle/order): their messages and their state in the address, so that
 * Back and Forward move between steps and a reload keeps what was chosen. Pure functions.
 */
import type { MessageKey } from '../../lib/i18n/index.ts';
import { addMonths, contractStartWindow } from '../../lib/schemas/order.ts';
import { authStatusKeys } from '../person/personData.ts';
import { orderStatusKeys } from './orderView.ts';

export const wizardSteps = ['set', 'contract', 'confirm'] as const;
export type WizardStep = (typeof wizardSteps)[number];

export interface WizardState {
  sellingSetId: string;
  step: WizardStep;
  schemeParamId: string;
  contractStart: string;
  contractMonths: string;
  estimatedConsumption: string;
}

const fields = ['sellingSetId', 'schemeParamId', 'contractStart', 'contractMonths', 'estimatedConsumption'] as const;

/** The state in `search`; a step whose inputs are missing falls back to the first step. */
export function readWizard(search: string): WizardState {
  const params = new URLSearchParams(search);
  const value = (name: string) => (params.get(name) ?? '').trim().slice(0, 100);
  const state: WizardState = {
    sellingSetId: value('sellingSetId'),
    step: 'set',
    schemeParamId: value('schemeParamId'),
    contractStart: value('contractStart'),
    contractMonths: value('contractMonths'),
    estimatedConsumption: value('estimatedConsumption'),
  };
  const step = value('step');
  if (step === 'contract' && state.sellingSetId && state.schemeParamId) state.step = 'contract';
  if (
    step === 'confirm' &&
    state.sellingSetId &&
    state.schemeParamId &&
    state.contractStart &&
    state.contractMonths &&
    state.estimatedConsumption
  ) {
    state.step = 'confirm';
  }
  return state;
}

/** The address's query for a state (empty values and the first step left out). */
export function writeWizard(state: WizardState): string {
  const params = new URLSearchParams();
  for (const name of fields) if (state[name]) params.set(name, state[name]);
  if (state.step !== 'set') params.set('step', state.step);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** The months a contract may start in today (from next month, 12 of them). */
export function startMonths(at: Date = new Date()): string[] {
  const { first, last } = contractStartWindow(at);
  const months: string[] = [];
  for (let month = first; month <= last; month = addMonths(month, 1)) months.push(month);
  return months;
}

export const wizardMessageKeys = [
  ...authStatusKeys,
  ...orderStatusKeys,
  'common.loading',
  'account.common.dash',
  'ordering.retry',
  'ordering.loadFailed',
  'ordering.steps.label',
  'ordering.step.set',
  'ordering.step.contract',
  'ordering.step.confirm',
  'ordering.step.current',
  'ordering.guide.title',
  'ordering.guide.empty',
  'ordering.guide.validRange',
  'ordering.guide.choose',
  'ordering.guide.chooseLabel',
  'ordering.set.selected',
  'ordering.set.change',
  'ordering.set.notOrderable',
  'ordering.scheme.legend',
  'ordering.scheme.none',
  'ordering.scheme.months',
  'ordering.scheme.consumptionRange',
  'ordering.scheme.consumptionFrom',
  'ordering.scheme.required',
  'ordering.field.contractStartHint',
  'ordering.field.monthsOption',
  'ordering.field.estimatedConsumptionHint',
  'ordering.detail.priceEnergy',
  'ordering.detail.priceEnergyValue',
  'ordering.detail.priceShare',
  'ordering.detail.priceShareValue',
  'ordering.detail.enterprise',
  'ordering.detail.set',
  'ordering.detail.orgCom',
  'ordering.detail.contractPeriod',
  'ordering.detail.periodValue',
  'ordering.detail.consumption',
  'ordering.detail.consumptionValue',
  'ordering.summary.title',
  'ordering.next',
  'ordering.back',
  'ordering.submit',
  'ordering.submitting',
  'ordering.created',
  'ordering.gate.noEnterprise',
  'ordering.gate.notCertified',
  'ordering.gate.bind',
  'ordering.gate.certify',
  'ordering.gate.loadFailed',
  'order.contractStartRange',
  'order.consumptionDecimals',
  'field.sellingSetId',
  'field.schemeParamId',
  'field.contractStart',
  'field.contractMonths',
  'field.estimatedConsumption',
  'field.value',
] as const satisfies readonly MessageKey[];

/** The wizard's own texts; the page adds the `validation.*` texts its form checks need. */
export type WizardMessages = Record<(typeof wizardMessageKeys)[number], string> & Readonly<Record<string, string>>;
