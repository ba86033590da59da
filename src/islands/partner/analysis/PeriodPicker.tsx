import { useId } from 'react';
import { useDraft } from '../../useDraft.ts';
import { isPeriod, yearTypes, type YearType } from '../../../lib/partner.ts';
import { periodInputType } from './analysisQuery.ts';

interface GranularityProps {
  legend: string;
  /** 按年 / 按月 / 按日, by yearType. */
  labels: Record<YearType, string>;
  value: YearType;
  onChange: (yearType: YearType) => void;
}

/**
 * 年/月/日: a radio group drawn as joined buttons (daisyUI shows each radio's aria-label), so the
 * arrow keys move between them as in any radio group.
 */
export function GranularitySwitch({ legend, labels, value, onChange }: GranularityProps) {
  const name = useId();
  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">{legend}</legend>
      <div className="join" role="radiogroup" aria-label={legend}>
        {yearTypes.map((yearType) => (
          <input
            key={yearType}
            type="radio"
            name={name}
            className="join-item btn btn-sm"
            aria-label={labels[yearType]}
            value={yearType}
            checked={value === yearType}
            onChange={() => onChange(yearType)}
          />
        ))}
      </div>
    </fieldset>
  );
}

interface PeriodProps {
  label: string;
  yearType: YearType;
  /** The period shown (the address's, else the one the server used). */
  value: string;
  /** The granularity's format error (partner.period.N). */
  invalidMessage: string;
  onChange: (period: string) => void;
  min?: string;
  max?: string;
}

/**
 * A period in the granularity's format: a year as a number (YYYY), a month and a day in the
 * browser's own month and date fields (YYYY-MM, YYYY-MM-DD), all typed or stepped from the
 * keyboard. Only a complete, valid period is passed on; while the text is incomplete or wrong the
 * field says why and the page keeps its data.
 */
export function PeriodField({ label, yearType, value, invalidMessage, onChange, min, max }: PeriodProps) {
  const id = useId();
  const [draft, setDraft] = useDraft(value, `${yearType}|${value}`);
  const invalid = draft !== '' && !isPeriod(yearType, draft);
  const type = periodInputType[yearType];
  return (
    <div className="fieldset">
      <label className="fieldset-legend" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type={type}
        className={`input input-sm w-44 ${invalid ? 'input-error' : ''}`}
        value={draft}
        {...(type === 'number' ? { min: 2000, max: 2100, step: 1, inputMode: 'numeric' as const } : { min, max })}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(event) => {
          const text = event.currentTarget.value.trim();
          setDraft(text);
          if (isPeriod(yearType, text) && text !== value) onChange(text);
        }}
      />
      {invalid && (
        <span id={`${id}-error`} className="label text-error">
          {invalidMessage}
        </span>
      )}
    </div>
  );
}
