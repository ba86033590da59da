import { useId, type ReactNode } from 'react';
import { consentField } from '../../lib/schemas/consent.ts';

interface Props {
  /** `legal.consent`: the sentence with `{userAgreement}` and `{privacyPolicy}` where the links go. */
  template: string;
  userAgreement: { label: string; href: string };
  privacyPolicy: { label: string; href: string };
  error?: string | undefined;
}

/** The sentence with its two placeholders replaced by links (opened beside the form, which keeps what was typed). */
function withLinks(template: string, links: Record<string, { label: string; href: string }>): ReactNode[] {
  return template.split(/(\{\w+\})/).map((part, i) => {
    const link = links[part.slice(1, -1)];
    if (!/^\{\w+\}$/.test(part) || !link) return part;
    return (
      <a key={i} className="link link-primary" href={link.href} target="_blank" rel="noopener">
        {link.label}
      </a>
    );
  });
}

/**
 * 「我已阅读并同意《用户协议》和《隐私政策》」: unticked until the person ticks it (PIPL art. 14: consent is
 * given by a clear act); a registration without it is refused, by the form and by the server alike.
 */
export default function ConsentCheckbox({ template, userAgreement, privacyPolicy, error }: Props) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="py-2">
      <div className="flex items-start gap-2 text-sm">
        <input
          id={id}
          type="checkbox"
          name={consentField}
          // The browser's own box (public.css leaves daisyUI's out: 1 KB on every public page).
          className="mt-1 size-4 shrink-0"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {/* A link inside the label opens the document and leaves the box as it was (HTML's label activation). */}
        <label htmlFor={id} className="cursor-pointer">
          {withLinks(template, { userAgreement, privacyPolicy })}
        </label>
      </div>
      {error && (
        <p id={errorId} className="mt-1 text-sm text-error">
          {error}
        </p>
      )}
    </div>
  );
}
