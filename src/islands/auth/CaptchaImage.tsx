import { useState } from 'react';

export const CAPTCHA_IMAGE_URL = '/api/front/system/captcha-image';

export interface CaptchaMessages {
  'account.captcha.refresh': string;
  'account.captcha.loadFailed': string;
}

interface Props {
  messages: CaptchaMessages;
  /** Bumped by the form after each try: a captcha is single use, so a new one is fetched. */
  version: number;
  /** A click on the image asks for a new one. */
  onRefresh: () => void;
}

/**
 * The server-made captcha image, a 240 × 80 PNG shown at 120 × 40 (sharp on high-density screens;
 * an HttpOnly cookie ties it to this browser). The first image is
 * a plain `<img>` in the server-rendered HTML, so it shows before the island hydrates; every
 * later one adds the `t` parameter the call ignores, so the browser cannot reuse a cached image.
 */
export default function CaptchaImage({ messages, version, onRefresh }: Props) {
  const [failedVersion, setFailedVersion] = useState<number | null>(null);
  const src = version === 0 ? CAPTCHA_IMAGE_URL : `${CAPTCHA_IMAGE_URL}?t=${version}`;
  const failed = failedVersion === version;
  return (
    <button
      type="button"
      className="btn btn-ghost h-10 w-30 shrink-0 overflow-hidden border border-base-300 p-0"
      onClick={onRefresh}
      aria-label={messages['account.captcha.refresh']}
      title={messages['account.captcha.refresh']}
    >
      {failed ? (
        <span className="px-1 text-xs whitespace-normal text-error">{messages['account.captcha.loadFailed']}</span>
      ) : (
        <img
          src={src}
          alt=""
          width={120}
          height={40}
          className="h-full w-full object-contain"
          onError={() => setFailedVersion(version)}
        />
      )}
    </button>
  );
}
