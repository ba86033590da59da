/**
 * Bank USB-key certification end to end against the sandbox bank (src/server/bank/sandbox.ts):
 * the page says it is the demo sandbox; an enterprise bound with only its name and clearance
 * account is sent to complete its record first (the same record certification with documents
 * needs); a lookup the bank fails or never answers, and an authorisation it fails to record, are
 * told apart and change nothing; a wrong PIN is refused beside the PIN; the right key certifies
 * the enterprise at once; removing the binding asks first and takes the enterprise back to
 * "not certified".
 */
import { sandboxAccounts, sandboxPin, sandboxTrialEnterpriseName } from '../../src/server/bank/sandbox.ts';
import { expect, registerThroughApi, test } from './support/accountsFixtures.ts';
import { chineseSpec, toast, zh } from './support/chinesePages.ts';
import { bindOnPage, freshCreditCode } from './support/enterpriseFixtures.ts';

chineseSpec(120_000);

function sandboxAccount(behaviour: (typeof sandboxAccounts)[number]['behaviour']): string {
  const account = sandboxAccounts.find(
    (candidate) => candidate.accountName === sandboxTrialEnterpriseName && candidate.behaviour === behaviour,
  );
  if (!account) throw new Error(`the sandbox has no ${behaviour} account`);
  return account.accountNo;
}

test('USB-key certification: a failing, a hanging and a refusing bank, a wrong PIN, then certified; removal asks first', async ({
  page,
  accounts,
}) => {
  test.setTimeout(180_000);
  const user = await registerThroughApi(page.request, accounts);
  // The sandbox's trial accounts are held by this name; the bank checks it equals the enterprise's.
  const clearanceAccount = await bindOnPage(page, accounts, user, sandboxTrialEnterpriseName);

  await test.step('demo mode is said; a record with only a name and a clearance account is sent to be completed', async () => {
    await page.goto('/certify/enterprise/usbkey');
    await expect(page.getByRole('note', { name: zh['certify.usbkey.sandboxTitle'] })).toContainText(sandboxPin);
    const incomplete = page.getByRole('region', { name: zh['certify.usbkey.incompleteTitle'] });
    await expect(incomplete).toContainText(zh['certify.field.creditCode']);
    await expect(incomplete).toContainText(zh['certify.field.electricityAccounts']);
    await expect(incomplete.getByRole('link', { name: zh['certify.submit.editRecord'] })).toHaveAttribute(
      'href',
      /\/person\/enterprise$/,
    );
    await expect(page.getByRole('region', { name: `1. ${zh['certify.usbkey.accountStep']}` })).toHaveCount(0);

    // The record is completed through the API here (the record form is enterprise.spec.ts's).
    const headers = { 'X-Requested-With': 'XMLHttpRequest', Origin: accounts.url };
    const own = (await (await page.request.get(`${accounts.url}/api/front/hgdarc/enterpriseuser/get`)).json()) as {
      data: { id: number };
    };
    const edited = (await (
      await page.request.post(`${accounts.url}/api/front/hgdarc/enterpriseuser/edit`, {
        headers,
        form: {
          id: String(own.data.id),
          enterpriseName: sandboxTrialEnterpriseName,
          creditCode: freshCreditCode(),
          legalPerson: '陈明',
          contactName: '陈经办',
          contactPhone: '13900139001',
          address: '广州市天河区示例路 45 号',
          industry: 'C',
          areaCode: '440000',
          clearanceAccount,
          electricityAccounts: '0300987654',
          voltageLevel: 'kv10',
          annualConsumption: '800',
        },
      })
    ).json()) as { code: number; message: string };
    expect(edited.code, edited.message).toBe(200);
  });

  await page.goto('/certify/enterprise');
  await page.getByRole('link', { name: zh['certify.way.usbkeyAction'] }).click();
  await expect(page).toHaveURL(/\/certify\/enterprise\/usbkey$/);
  const accountStep = page.getByRole('region', { name: `1. ${zh['certify.usbkey.accountStep']}` });
  const accountNo = accountStep.getByLabel(zh['certify.usbkey.accountNo'], { exact: true });

  await test.step('a malformed account number is refused by the shared rule', async () => {
    await accountNo.fill('12ab');
    await accountStep.getByRole('button', { name: zh['certify.usbkey.lookup'] }).click();
    await expect(accountNo).toHaveAttribute('aria-invalid', 'true');
    await expect(accountNo).toBeFocused();
  });

  await test.step('the bank fails the lookup, then does not answer: each said so, nothing changed', async () => {
    await accountNo.fill(sandboxAccount('lookupFails'));
    await accountStep.getByRole('button', { name: zh['certify.usbkey.lookup'] }).click();
    const refusal = accountStep.getByRole('alert');
    await expect(refusal).toContainText(zh['certify.usbkey.bankFailed']);
    await expect(refusal).toContainText(zh['bank.error.unavailable']);
    await expect(accountStep).toContainText(zh['authStatus.0']);

    // A bank that hangs: the button says the bank is being asked until the server gives up on it.
    await accountNo.fill(sandboxAccount('lookupTimesOut'));
    await accountStep.getByRole('button', { name: zh['certify.usbkey.lookup'] }).click();
    await expect(accountStep.getByRole('button', { name: zh['certify.usbkey.looking'] })).toBeDisabled();
    await expect(refusal).toContainText(zh['bank.error.timeout'], { timeout: 30_000 });
    await expect(accountStep.getByRole('button', { name: zh['certify.usbkey.lookup'] })).toBeEnabled();
  });

  const signStep = page.getByRole('region', { name: `2. ${zh['certify.usbkey.signStep']}` });
  const fillHolder = async (pin: string) => {
    await signStep.getByLabel(zh['certify.usbkey.pin'], { exact: true }).fill(pin);
    await signStep.getByLabel(zh['certify.usbkey.empName'], { exact: true }).fill('陈经办');
    await signStep.getByLabel(zh['certify.usbkey.empNo'], { exact: true }).fill('E1024');
    await signStep.getByRole('button', { name: zh['certify.usbkey.sign'] }).click();
  };

  await test.step('the bank fails to record the authorisation: said so, still not certified', async () => {
    await accountNo.fill(sandboxAccount('saveFails'));
    await accountStep.getByRole('button', { name: zh['certify.usbkey.lookup'] }).click();
    await expect(signStep).toContainText(sandboxTrialEnterpriseName);
    await fillHolder(sandboxPin);
    await expect(signStep.getByRole('alert')).toContainText(zh['certify.usbkey.bankFailed']);
    await expect(accountStep).toContainText(zh['authStatus.0']);
    await accountStep.getByRole('button', { name: zh['certify.usbkey.restart'] }).click();
    await expect(signStep).toHaveCount(0);
  });

  await test.step('look up the enterprise account; a wrong PIN is refused beside the PIN', async () => {
    await accountNo.fill(sandboxAccount('normal'));
    await accountStep.getByRole('button', { name: zh['certify.usbkey.lookup'] }).click();
    await expect(signStep).toContainText(sandboxTrialEnterpriseName);
    await fillHolder('000000');
    const pin = signStep.getByLabel(zh['certify.usbkey.pin'], { exact: true });
    await expect(pin).toHaveAttribute('aria-invalid', 'true');
    await expect(signStep.getByText(zh['bank.error.pinWrong'])).toBeVisible();
    await expect(page.getByRole('region', { name: zh['certify.usbkey.boundTitle'] })).toHaveCount(0);
  });

  await test.step('the right PIN certifies the enterprise at once', async () => {
    await signStep.getByLabel(zh['certify.usbkey.pin'], { exact: true }).fill(sandboxPin);
    await signStep.getByRole('button', { name: zh['certify.usbkey.sign'] }).click();
    await expect(toast(page, zh['certify.usbkey.done'])).toBeVisible();
    const bound = page.getByRole('region', { name: zh['certify.usbkey.boundTitle'] });
    await expect(bound).toContainText(zh['authStatus.2']);
    await expect(bound).toContainText(zh['certify.authType.usbkey']);
    await expect(bound).toContainText('陈经办');
    // 开户银行 by name in the page's locale, never the provider's code.
    await expect(bound).toContainText(`${zh['certify.record.bank']}${zh['certify.bank.icbc']}`);
    await expect(bound).not.toContainText('icbc');
  });

  await test.step('my enterprise shows the binding', async () => {
    await page.goto('/person/enterprise');
    await expect(page.getByRole('region', { name: zh['certify.record.title'] })).toContainText(zh['authStatus.2']);
    await expect(page.getByRole('region', { name: zh['certify.record.bankTitle'] })).toContainText('陈经办');
  });

  await test.step('removing the binding asks first, then the enterprise is not certified', async () => {
    await page.goto('/certify/enterprise/usbkey');
    const bound = page.getByRole('region', { name: zh['certify.usbkey.boundTitle'] });
    await bound.getByRole('button', { name: zh['certify.usbkey.remove'] }).click();
    const dialog = page.getByRole('dialog', { name: zh['certify.usbkey.removeTitle'] });
    await expect(dialog.getByRole('button', { name: zh['certify.common.cancel'] })).toBeFocused();
    await dialog.getByRole('button', { name: zh['certify.usbkey.remove'] }).click();
    await expect(toast(page, zh['certify.usbkey.removed'])).toBeVisible();
    await expect(page.getByRole('region', { name: `1. ${zh['certify.usbkey.accountStep']}` })).toContainText(
      zh['authStatus.0'],
    );
    await page.goto('/certify/enterprise');
    await expect(page.getByRole('region', { name: zh['certify.status.title'] })).toContainText(zh['authStatus.0']);
  });
});
