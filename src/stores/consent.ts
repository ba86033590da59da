/**
 * The consent dialog of the pages any signed-in account opens (components/ConsentGate.astro): loaded only when
 * currentUser says the account owes an agreement to a new user agreement or privacy policy. It
 * fills the gate's <dialog> with what changed in each document; agreeing records it and opens the
 * page, declining records it, signs out and leaves for the home page (docs/privacy.md). It imports
 * nothing at run time — the gate hands it the request client's post and the notices
 * (`ConsentTools`) — so loading it fetches this file alone.
 */
import type { post } from '../lib/api/client.ts';
import type { message } from '../lib/api/notify.ts';
import type { ConsentOwed } from '../lib/schemas/consent.ts';

/** What the gate hands over from the page's core chunk, so that this module imports nothing. */
export interface ConsentTools {
  post: typeof post;
  message: typeof message;
}

export const CONSENT_URL = '/api/front/user/consent';
export const DECLINE_CONSENT_URL = '/api/front/user/declineConsent';

/**
 * Agrees to the versions currentUser asked for; the answer's message either way (a refusal: a
 * newer version was published meanwhile).
 */
async function agreeToConsent(tools: ConsentTools, owed: ConsentOwed): Promise<{ ok: boolean; message: string }> {
  const answer = await tools.post(CONSENT_URL, { ...owed.versions }, { quiet: true });
  return { ok: answer?.code === 200, message: answer?.message ?? '' };
}

/** Declines them: the server records it and ends the session; the visitor leaves for the home page, signed out. */
async function declineConsent(tools: ConsentTools, homeUrl: string): Promise<void> {
  const answer = await tools.post(DECLINE_CONSENT_URL, undefined, { quiet: true });
  // 901: the session had already ended; either way the person is signed out now.
  if (answer && answer.code !== 200 && answer.code !== 901) {
    tools.message.error(answer.message || String(answer.code));
    return;
  }
  // The server ended the session and cleared its cookies: the next page finds nobody signed in.
  window.location.assign(homeUrl);
}

/**
 * Shows the gate's modal: what changed in each document; only a choice closes it. `onAgreed`
 * opens the page. The gate's data attributes carry the texts the build wrote (meta template,
 * the legal pages' base path, the home page).
 */
export function askConsent(gate: HTMLElement, owed: ConsentOwed, tools: ConsentTools, onAgreed: () => void): void {
  const dialog = gate.querySelector<HTMLDialogElement>('[data-consent-dialog]');
  const changesList = gate.querySelector('[data-consent-changes]');
  const template = gate.querySelector<HTMLTemplateElement>('[data-consent-change]');
  const error = gate.querySelector<HTMLElement>('[data-consent-error]');
  const agree = gate.querySelector<HTMLButtonElement>('[data-consent-agree]');
  const decline = gate.querySelector<HTMLButtonElement>('[data-consent-decline]');
  if (!dialog || !changesList || !template || !error || !agree || !decline) return;
  const field = (item: Element, name: string) => item.querySelector<HTMLElement>(`[data-field="${name}"]`);
  changesList.replaceChildren(
    ...owed.changes.map((change) => {
      const item = template.content.firstElementChild!.cloneNode(true) as HTMLElement;
      field(item, 'title')!.textContent = change.title;
      field(item, 'meta')!.textContent = (gate.dataset['metaTemplate'] ?? '')
        .replace('{version}', change.version)
        .replace('{effective}', change.effective);
      field(item, 'changes')!.textContent = change.changes;
      field(item, 'read')!.setAttribute('href', `${gate.dataset['legalBase'] ?? '/legal/'}${change.documentId}`);
      return item;
    }),
  );
  // Only a choice closes it: Escape does not.
  dialog.addEventListener('cancel', (event) => event.preventDefault());
  const busy = (on: boolean) => {
    agree.disabled = on;
    decline.disabled = on;
  };
  agree.addEventListener('click', async () => {
    busy(true);
    const answer = await agreeToConsent(tools, owed);
    busy(false);
    if (!answer.ok) {
      error.textContent = answer.message;
      error.hidden = false;
      return;
    }
    dialog.close();
    if (answer.message) tools.message.success(answer.message);
    onAgreed();
  });
  decline.addEventListener('click', async () => {
    busy(true);
    await declineConsent(tools, gate.dataset['home'] ?? '/');
    busy(false);
  });
  dialog.showModal();
}
