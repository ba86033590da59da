/**
 * The enterprise pages end to end (docs/enterprise-ui.md): an account is bound to an enterprise,
 * fills in its record, certifies it with the business licence and the letter of authorisation,
 * an operator approves it, and the enterprise orders a package that the operator puts in force;
 * the form's validation errors and drafts. USB-key certification is
 * in enterprise-usbkey.spec.ts.
 */
import type { Page } from '@playwright/test';
import { format } from '../../src/lib/api/messages.ts';
import { maskAccountNo } from '../../src/lib/masking.ts';
import { apiLogin, expect, registerThroughApi, test } from './support/accountsFixtures.ts';
import { chineseSpec, toast, zh } from './support/chinesePages.ts';
import {
  bindOnPage,
  freshClearanceAccount,
  freshCreditCode,
  samplePdf,
  samplePng,
} from './support/enterpriseFixtures.ts';
import { completeOrder, operatorActs, say, SET_NAME } from './support/ordering.ts';

chineseSpec(120_000);

/** The message a shared schema gives for a field (the label is the field's name in the sentence). */
/** Uploads from `page` at 256 KB/s, so a progress bar can be seen (and pressed past) mid-upload. */
async function slowUploads(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const conditions = (uploadThroughput: number) => ({
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput,
  });
  await cdp.send('Network.emulateNetworkConditions', conditions(256 * 1024));
  return { restore: () => cdp.send('Network.emulateNetworkConditions', conditions(-1)) };
}

function fieldMessage(key: 'validation.required' | 'enterprise.validation.creditCode', field: keyof typeof zh): string {
  return format(zh[key], { label: zh[field] });
}

test('the whole journey: bind, fill in the record, certify with both files, the operator approves; then an order of a package goes in force', async ({
  page,
  browser,
  accounts,
}) => {
  test.setTimeout(300_000);
  const user = await registerThroughApi(page.request, accounts);
  const name = `广州测试精工制造有限公司${Date.now() % 100000}`;
  const creditCode = freshCreditCode();

  let clearanceAccount = '';
  await test.step('bind the account to a new enterprise', async () => {
    clearanceAccount = await bindOnPage(page, accounts, user, name);
  });

  await test.step('fill in the enterprise record', async () => {
    await page.goto('/person/enterprise');
    const record = page.getByRole('region', { name: zh['certify.record.title'] });
    await expect(record).toContainText(name);
    await expect(record).toContainText(zh['authStatus.0']);
    await record.getByRole('button', { name: zh['certify.record.edit'] }).click();
    const form = page.getByRole('region', { name: zh['certify.record.editTitle'] });
    await form.getByLabel(zh['certify.field.creditCode'], { exact: true }).fill(creditCode);
    await form.getByLabel(zh['certify.field.legalPerson'], { exact: true }).fill('张明');
    await form.getByLabel(zh['certify.field.address'], { exact: true }).fill('广州市黄埔区科学大道 100 号');
    await form.getByLabel(zh['certify.field.areaCode'], { exact: true }).selectOption({ label: '广东省' });
    await form.getByLabel(zh['certify.field.industry'], { exact: true }).selectOption({ label: '制造业' });
    await form.getByLabel(zh['certify.field.voltageLevel'], { exact: true }).selectOption({ label: '10千伏' });
    await form.getByLabel(zh['certify.field.electricityAccounts'], { exact: true }).fill('0300123456, 0300123457');
    await form.getByLabel(zh['certify.field.annualConsumption'], { exact: true }).fill('1200.5');
    await form.getByRole('button', { name: zh['certify.form.save'], exact: true }).click();
    await expect(toast(page, zh['certify.record.saved'])).toBeVisible();
    await expect(record).toContainText(creditCode);
    await expect(record).toContainText('0300123456, 0300123457');
    await expect(record).toContainText('制造业');
  });

  await test.step('upload the two files: a wrong one is refused before it is sent', async () => {
    await page.goto('/certify/enterprise');
    await expect(page.getByRole('region', { name: zh['certify.status.title'] })).toContainText(zh['authStatus.0']);
    await page.getByRole('link', { name: zh['certify.way.certificateAction'] }).click();
    await expect(page).toHaveURL(/\/certify\/enterprise\/certificate$/);

    const licenceName = zh['certify.files.kind.businessLicence'];
    const licence = page.getByRole('region', { name: licenceName });
    await expect(licence).toContainText(zh['certify.files.missing']);
    const chooseLicence = licence.getByRole('button', {
      name: format(zh['certify.files.choose'], { kind: licenceName }),
    });

    // A text file named .pdf: the content check refuses it without a request.
    let chooser = page.waitForEvent('filechooser');
    await chooseLicence.click();
    await (
      await chooser
    ).setFiles({ name: 'licence.pdf', mimeType: 'application/pdf', buffer: Buffer.from('just some text, not a PDF') });
    await expect(licence.getByRole('alert')).toHaveText(zh['certify.files.badType']);

    // A real PDF, sent over a slowed-down upload link so the progress bar can be seen moving.
    const link = await slowUploads(page);
    const largerPdf = Buffer.concat([samplePdf, Buffer.alloc(768 * 1024, 0x20)]);
    const progress = licence.getByRole('progressbar', {
      name: format(zh['certify.files.progress'], { kind: licenceName }),
    });

    // An upload under way can be cancelled: nothing is kept.
    chooser = page.waitForEvent('filechooser');
    await chooseLicence.click();
    await (await chooser).setFiles({ name: '营业执照.pdf', mimeType: 'application/pdf', buffer: largerPdf });
    await expect(progress).toBeVisible();
    await licence
      .getByRole('button', { name: format(zh['certify.files.cancelUpload'], { kind: licenceName }) })
      .click();
    await expect(progress).toBeHidden();
    await expect(licence).toContainText(zh['certify.files.missing']);

    // This time from the keyboard: the file button is an ordinary button.
    chooser = page.waitForEvent('filechooser');
    await chooseLicence.focus();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: '营业执照.pdf', mimeType: 'application/pdf', buffer: largerPdf });
    await expect(progress).toBeVisible();
    await expect(licence.getByRole('status')).toHaveText(
      format(zh['certify.files.uploading'], { name: '营业执照.pdf' }),
    );
    await expect(progress).toBeHidden({ timeout: 30_000 });
    await link.restore();
    await expect(toast(page, format(zh['certify.files.uploaded'], { kind: licenceName }))).toBeVisible();
    await expect(licence).toContainText('营业执照.pdf');
    await expect(
      licence.getByRole('link', { name: format(zh['certify.files.view'], { kind: licenceName }) }),
    ).toHaveAttribute('target', '_blank');

    // Submitting with one file missing is stopped by the page.
    await page.getByRole('button', { name: zh['certify.submit.action'] }).click();
    await expect(page.getByText(zh['certify.submit.needFiles'])).toBeVisible();

    // The letter is dropped onto its zone.
    const letterName = zh['certify.files.kind.authLetter'];
    const letter = page.getByRole('region', { name: letterName });
    const dataTransfer = await page.evaluateHandle(
      (bytes) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], '授权委托书.png', { type: 'image/png' }));
        return transfer;
      },
      [...samplePng],
    );
    await letter.getByText(zh['certify.files.drop']).dispatchEvent('drop', { dataTransfer });
    await expect(toast(page, format(zh['certify.files.uploaded'], { kind: letterName }))).toBeVisible();
    await expect(letter).toContainText('授权委托书.png');

    // Deleting asks first; cancelling keeps the file.
    await letter.getByRole('button', { name: format(zh['certify.files.delete'], { kind: letterName }) }).click();
    const dialog = page.getByRole('dialog', { name: zh['certify.files.deleteTitle'] });
    await expect(dialog.getByRole('button', { name: zh['certify.common.cancel'] })).toBeFocused();
    await dialog.getByRole('button', { name: zh['certify.common.cancel'] }).click();
    await expect(letter).toContainText('授权委托书.png');
  });

  await test.step('submit for review', async () => {
    await page.getByRole('button', { name: zh['certify.submit.action'] }).click();
    await expect(toast(page, zh['certify.submit.done'])).toBeVisible();
    await expect(page.getByRole('region', { name: zh['certify.authType.certificate'] })).toContainText(
      zh['authStatus.1'],
    );
    // Under review the files can be looked at but not changed.
    await expect(page.getByText(zh['certify.files.locked'])).toBeVisible();
    await expect(page.getByRole('button', { name: zh['certify.submit.action'] })).toHaveCount(0);
  });

  await test.step('the operator finds it in the queue, a return needs a comment, then approves', async () => {
    const context = await browser.newContext({ baseURL: accounts.url, locale: 'zh-CN' });
    await context.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
    const ops = await context.newPage();
    await apiLogin(ops.request, accounts.url, 'demo_operator', 'Operator2025');
    await ops.goto('/ops/certifications');
    // The queue's section (with its search box), not its table's scrolling frame of the same name.
    const queue = ops
      .getByRole('region', { name: zh['certify.ops.queueLabel'] })
      .filter({ has: ops.getByRole('searchbox') });
    await queue.getByRole('searchbox').fill(name);
    await queue.getByRole('button', { name: zh['certify.ops.search'] }).click();
    await expect(ops).toHaveURL(/[?&]q=/);
    await queue.getByRole('button', { name: format(zh['certify.ops.review'], { name }) }).click();
    await expect(ops).toHaveURL(/[?&]id=\d+/);

    await expect(ops.getByRole('region', { name })).toContainText(creditCode);
    const files = ops.getByRole('region', { name: zh['certify.ops.filesTitle'] });
    await expect(
      files.getByRole('link', {
        name: format(zh['certify.ops.openFile'], { kind: zh['certify.files.kind.businessLicence'] }),
      }),
    ).toHaveAttribute('target', '_blank');
    await expect(files.getByRole('img', { name: /授权委托书\.png/ })).toBeVisible();

    // The clearance account is masked for staff; showing it whole is a button (and an audit entry).
    const record = ops.getByRole('region', { name });
    await expect(record).toContainText(maskAccountNo(clearanceAccount));
    await expect(record).not.toContainText(clearanceAccount);
    const reveals = record.getByRole('button', { name: zh['certify.ops.reveal'] });
    await expect(reveals.first()).toHaveAccessibleDescription(zh['certify.ops.revealNote']);
    const offered = await reveals.count();
    await reveals.last().click();
    await expect(record).toContainText(clearanceAccount);
    await expect(reveals).toHaveCount(offered - 1);

    await ops.getByRole('button', { name: zh['certify.ops.return'] }).click();
    await expect(ops.getByText(fieldMessage('validation.required', 'field.comment'))).toBeVisible();
    await expect(ops.getByLabel(zh['certify.ops.comment'])).toBeFocused();

    await ops.getByRole('button', { name: zh['certify.ops.approve'] }).click();
    const dialog = ops.getByRole('dialog', { name: zh['certify.ops.approveTitle'] });
    await dialog.getByRole('button', { name: zh['certify.ops.approve'] }).click();
    await expect(toast(ops, zh['certify.ops.approved'])).toBeVisible();
    // Back in the queue, which no longer lists it.
    await expect(queue).toContainText(zh['certify.ops.empty']);
    await context.close();
  });

  await test.step('the enterprise is certified', async () => {
    await page.goto('/certify/enterprise');
    const status = page.getByRole('region', { name: zh['certify.status.title'] });
    await expect(status).toContainText(zh['authStatus.2']);
    await expect(status).toContainText(zh['certify.authType.certificate']);
    await page.goto('/person/enterprise');
    await expect(page.getByRole('region', { name: zh['certify.record.title'] })).toContainText(zh['authStatus.2']);
  });

  // The rest of the journey: the newly certified enterprise orders a package of its area.
  let orderNo = '';
  await test.step('it orders a package from the set page', async () => {
    await page.goto('/products/id1/gd-fixed-2027');
    await page.getByRole('link', { name: say('site.set.orderLabel', { orgCom: '粤汇电能', set: SET_NAME }) }).click();
    orderNo = await completeOrder(page, '1200');
    await expect(page.getByText(zh['orderStatus.10']).first()).toBeVisible();
  });

  await test.step('the operator accepts and confirms it; the enterprise sees it in force', async () => {
    await operatorActs(browser, accounts.url, orderNo, [
      { label: zh['ops.action.accept'], status: zh['orderStatus.20'] },
      { label: zh['ops.action.confirm'], status: zh['orderStatus.30'] },
    ]);
    await page.goto('/person/order');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: orderNo }) });
    await expect(row).toContainText(zh['orderStatus.30']);
    await expect(row).toContainText(SET_NAME);
  });
});

test('the enterprise form: field errors from the shared rules, a draft, then the whole record', async ({
  page,
  accounts,
}) => {
  await registerThroughApi(page.request, accounts);
  await page.goto('/person/enterprise');
  await expect(page.getByText(zh['certify.record.noneTitle'])).toBeVisible();
  await expect(page.getByRole('link', { name: zh['certify.record.bindLink'] })).toHaveAttribute(
    'href',
    /\/setting\/binding$/,
  );
  const form = page.getByRole('region', { name: zh['certify.record.addTitle'] });
  const create = form.getByRole('button', { name: zh['certify.form.create'], exact: true });

  // Nothing filled in: the first missing field gets the focus.
  await create.click();
  await expect(form.getByText(fieldMessage('validation.required', 'field.enterpriseName'))).toBeVisible();
  await expect(form.getByLabel(zh['certify.field.enterpriseName'], { exact: true })).toBeFocused();

  // A credit code whose check character is wrong.
  const name = `深圳测试校验科技有限公司${Date.now() % 100000}`;
  await form.getByLabel(zh['certify.field.enterpriseName'], { exact: true }).fill(name);
  const creditCode = form.getByLabel(zh['certify.field.creditCode'], { exact: true });
  await creditCode.fill('91350100M000100Y44');
  await form.getByLabel(zh['certify.field.contactPhone'], { exact: true }).fill('12345');
  await create.click();
  await expect(form.getByText(fieldMessage('enterprise.validation.creditCode', 'field.creditCode'))).toBeVisible();
  await expect(creditCode).toHaveAttribute('aria-invalid', 'true');
  await expect(creditCode).toBeFocused();

  // A draft needs only the name and the clearance account; a bad value filled in is still refused.
  const clearanceAccount = freshClearanceAccount();
  await form.getByLabel(zh['certify.field.clearanceAccount'], { exact: true }).fill(clearanceAccount);
  await creditCode.fill('');
  await form.getByRole('button', { name: zh['certify.form.saveDraft'] }).click();
  await expect(form.getByLabel(zh['certify.field.contactPhone'], { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await form.getByLabel(zh['certify.field.contactPhone'], { exact: true }).fill('');
  await form.getByRole('button', { name: zh['certify.form.saveDraft'] }).click();
  await expect(toast(page, zh['certify.record.draftSaved'])).toBeVisible();
  const record = page.getByRole('region', { name: zh['certify.record.title'] });
  await expect(record).toContainText(name);
  await expect(record).toContainText(zh['certify.record.draftBadge']);
  await expect(record).toContainText(zh['authStatus.0']);

  // The whole record: saved, no longer a draft.
  await record.getByRole('button', { name: zh['certify.record.edit'] }).click();
  const edit = page.getByRole('region', { name: zh['certify.record.editTitle'] });
  await edit.getByLabel(zh['certify.field.creditCode'], { exact: true }).fill(freshCreditCode());
  await edit.getByLabel(zh['certify.field.legalPerson'], { exact: true }).fill('李华');
  await edit.getByLabel(zh['certify.field.contactName'], { exact: true }).fill('王芳');
  await edit.getByLabel(zh['certify.field.contactPhone'], { exact: true }).fill('13800138000');
  await edit.getByLabel(zh['certify.field.address'], { exact: true }).fill('深圳市南山区科技园 1 号');
  await edit.getByLabel(zh['certify.field.areaCode'], { exact: true }).selectOption({ label: '广东省' });
  await edit.getByLabel(zh['certify.field.industry'], { exact: true }).selectOption({ label: '制造业' });
  await edit.getByLabel(zh['certify.field.voltageLevel'], { exact: true }).selectOption({ label: '10千伏' });
  await edit.getByLabel(zh['certify.field.electricityAccounts'], { exact: true }).fill('0755001234');
  await edit.getByRole('button', { name: zh['certify.form.save'], exact: true }).click();
  await expect(toast(page, zh['certify.record.saved'])).toBeVisible();
  await expect(record).not.toContainText(zh['certify.record.draftBadge']);

  // Deleting asks first, then the page offers to create one again.
  await record.getByRole('button', { name: zh['certify.record.delete'] }).click();
  const dialog = page.getByRole('dialog', { name: zh['certify.record.deleteTitle'] });
  await expect(dialog).toContainText(name);
  await dialog.getByRole('button', { name: zh['certify.record.delete'] }).click();
  await expect(toast(page, zh['certify.record.deleted'])).toBeVisible();
  await expect(page.getByText(zh['certify.record.noneTitle'])).toBeVisible();
});

test('a returned certification shows the comment and can be submitted again', async ({ page, browser, accounts }) => {
  await registerThroughApi(page.request, accounts);
  const origin = accounts.url;
  const headers = { 'X-Requested-With': 'XMLHttpRequest', Origin: origin };
  const name = `珠海测试退回材料有限公司${Date.now() % 100000}`;
  const comment = '营业执照照片不清晰，请重新上传清晰的扫描件。';

  await test.step('an enterprise submitted for review (set up through the API)', async () => {
    const call = async (path: string, options: Parameters<typeof page.request.post>[1]) => {
      const body = (await (await page.request.post(`${origin}${path}`, { ...options, headers })).json()) as {
        code: number;
        message: string;
        data: { id: number };
      };
      expect(body.code, `${path}: ${body.message}`).toBe(200);
      return body;
    };
    const added = await call('/api/front/hgdarc/enterpriseuser/add', {
      form: {
        enterpriseName: name,
        creditCode: freshCreditCode(),
        legalPerson: '周强',
        contactName: '周强',
        contactPhone: '13900139000',
        address: '珠海市香洲区情侣路 8 号',
        industry: 'F',
        areaCode: '440000',
        clearanceAccount: freshClearanceAccount(),
        electricityAccounts: '0756001234',
        voltageLevel: 'kv10',
        annualConsumption: '300',
      },
    });
    await call('/api/front/hgdarc/enterpriseauthfile/upload', {
      multipart: {
        kind: 'businessLicence',
        file: { name: 'licence.pdf', mimeType: 'application/pdf', buffer: samplePdf },
      },
    });
    await call('/api/front/hgdarc/enterpriseauthfile/upload', {
      multipart: { kind: 'authLetter', file: { name: 'letter.png', mimeType: 'image/png', buffer: samplePng } },
    });
    await call('/api/front/hgdarc/enterpriseuser/editAuthInfo', { form: { id: String(added.data.id) } });
  });

  await test.step('the operator returns it with a comment', async () => {
    const context = await browser.newContext({ baseURL: origin, locale: 'zh-CN' });
    await context.addInitScript(() => window.localStorage.setItem('locale', 'zh-CN'));
    const ops = await context.newPage();
    await apiLogin(ops.request, origin, 'demo_operator', 'Operator2025');
    await ops.goto(`/ops/certifications?q=${encodeURIComponent(name)}`);
    await ops.getByRole('button', { name: format(zh['certify.ops.review'], { name }) }).click();
    await ops.getByLabel(zh['certify.ops.comment']).fill(comment);
    await ops.getByRole('button', { name: zh['certify.ops.return'] }).click();
    await expect(toast(ops, zh['certify.ops.returned'])).toBeVisible();
    await context.close();
  });

  await test.step('the owner reads the comment, and submits again', async () => {
    await page.goto('/person/enterprise');
    const record = page.getByRole('region', { name: zh['certify.record.title'] });
    await expect(record).toContainText(zh['authStatus.3']);
    await expect(record.getByRole('alert')).toContainText(comment);
    await page.goto('/certify/enterprise/certificate');
    await expect(page.getByRole('alert').filter({ hasText: comment })).toBeVisible();
    // Returned: the files can be changed again, and the enterprise submitted again.
    const replaceLicence = page.getByRole('button', {
      name: format(zh['certify.files.replace'], { kind: zh['certify.files.kind.businessLicence'] }),
    });
    await expect(replaceLicence).toBeVisible();
    // A new licence on a slow link, and 提交审核 pressed while it is still on its way: the page
    // says it submits once the upload lands, and does.
    const link = await slowUploads(page);
    const chooser = page.waitForEvent('filechooser');
    await replaceLicence.click();
    await (
      await chooser
    ).setFiles({
      name: '新营业执照.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.concat([samplePdf, Buffer.alloc(512 * 1024, 0x20)]),
    });
    await expect(page.getByRole('progressbar')).toBeVisible();
    await page.getByRole('button', { name: zh['certify.submit.action'] }).click();
    await expect(page.getByRole('button', { name: zh['certify.submit.afterUpload'] })).toBeDisabled();
    await expect(page.getByText(zh['certify.submit.needFiles'])).toHaveCount(0);
    await expect(toast(page, zh['certify.submit.done'])).toBeVisible({ timeout: 30_000 });
    await link.restore();
    await expect(page.getByRole('region', { name: zh['certify.authType.certificate'] })).toContainText(
      zh['authStatus.1'],
    );
  });
});
