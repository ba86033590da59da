import { useId } from 'react';
import { format } from '../../../lib/api/messages.ts';
import { compareMaxPartners } from '../../../lib/partner.ts';
import { indentedName, type VisibleRow } from '../partnerTree.ts';
import type { PartnerTreeLoad } from '../usePartnerTree.ts';
import type { AnalysisMessages } from './analysisMessages.ts';
import { toggleId } from './analysisQuery.ts';

interface SelectProps {
  label: string;
  allLabel: string;
  /** The tree's load (usePartnerTree): its flattened `rows` once ready, disabled until then. */
  load: PartnerTreeLoad;
  value: number | undefined;
  onChange: (partnerId: number | undefined) => void;
}

/**
 * One institution's subtree (or all visible ones): a native select whose options are the tree
 * in order, indented by depth — the keyboard, type-ahead and screen readers work as in any select.
 */
export function InstitutionSelect({ label, allLabel, load, value, onChange }: SelectProps) {
  const id = useId();
  const options = load.state === 'ready' ? load.rows : [];
  return (
    <div className="fieldset">
      <label className="fieldset-legend" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="select select-sm w-72"
        value={value === undefined ? '' : String(value)}
        disabled={load.state !== 'ready'}
        onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : Number(event.currentTarget.value))}
      >
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.node.id} value={option.node.id}>
            {indentedName(option)}
          </option>
        ))}
      </select>
    </div>
  );
}

interface ChecklistProps {
  legend: string;
  messages: { chosen: string; tooFew: string; full: string };
  levelLabel: (option: VisibleRow) => string;
  /** The flattened tree (usePartnerTree's `rows`). */
  options: readonly VisibleRow[];
  value: readonly number[];
  min: number;
  onChange: (partnerIds: number[]) => void;
}

/**
 * 2–8 institutions to compare: a checkbox per institution, indented as the tree, in a scrolling
 * group. Tab and Space work as for any checkbox; once eight are chosen the others are disabled
 * and the count says why; fewer than two says what is missing (polite live region).
 */
export function InstitutionChecklist({ legend, messages, levelLabel, options, value, min, onChange }: ChecklistProps) {
  const countId = useId();
  const full = value.length >= compareMaxPartners;
  return (
    <fieldset className="fieldset min-w-72 flex-1" aria-describedby={countId}>
      <legend className="fieldset-legend">{legend}</legend>
      <ul className="max-h-56 overflow-y-auto rounded-box border border-base-300 p-2">
        {options.map((option) => {
          const { id, name } = option.node;
          const checked = value.includes(id);
          return (
            <li key={id} style={{ paddingInlineStart: `${(option.depth - 1) * 1.25}rem` }}>
              <label className="label cursor-pointer gap-2 py-0.5 text-base-content">
                <input
                  type="checkbox"
                  className="checkbox checkbox-sm"
                  checked={checked}
                  disabled={!checked && full}
                  onChange={() => onChange(toggleId(value, id, compareMaxPartners))}
                />
                <span>{name}</span>
                <span className="badge badge-ghost badge-xs">{levelLabel(option)}</span>
              </label>
            </li>
          );
        })}
      </ul>
      <p id={countId} role="status" className={`label ${value.length < min ? 'text-warning-content' : ''}`}>
        {format(messages.chosen, { count: value.length, min, max: compareMaxPartners })}
        {value.length < min && ` · ${format(messages.tooFew, { min })}`}
        {full && ` · ${format(messages.full, { max: compareMaxPartners })}`}
      </p>
    </fieldset>
  );
}

interface NoticeProps {
  load: PartnerTreeLoad;
  messages: AnalysisMessages;
  onRetry: () => void;
}

/** The institutions' own states beside the pickers: loading, failed (retry), none related. */
export function InstitutionsNotice({ load, messages, onRetry }: NoticeProps) {
  if (load.state === 'loading') {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-base-content/70">
        <span className="loading loading-spinner loading-xs" aria-hidden="true" />
        {messages['analysis.institution.loading']}
      </p>
    );
  }
  if (load.state === 'failed') {
    return (
      <div role="alert" className="alert alert-warning alert-soft py-2 text-sm">
        <span>{load.message || messages['analysis.institution.failed']}</span>
        <button type="button" className="btn btn-xs" onClick={onRetry}>
          {messages['analysis.retry']}
        </button>
      </div>
    );
  }
  return load.rows.length === 0 ? (
    <p role="status" className="alert alert-info alert-soft py-2 text-sm">
      {messages['analysis.institution.empty']}
    </p>
  ) : null;
}
