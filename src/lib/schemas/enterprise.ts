/**
 * Inputs and answers of the enterprise calls (docs/enterprises.md): the enterprise record
 * under /api/front/hgdarc/enterpriseuser, its certification files under enterpriseauthfile, the
 * bank USB-key certification under /api/front/thirdparty and /api/front/user/removeIcbcAuth, and
 * the operator's review under /api/ops/certification. The forms validate with these same schemas;
 * the server answers a failure with code 400 and the localized message of the first issue.
 *
 * Form bodies arrive as strings: ids and numbers are coerced, the electricity accounts may come as
 * one comma-separated string, and an empty optional field counts as absent.
 */
import { z } from 'zod/mini';
import { isValidCreditCode, normalizeCreditCode } from '../creditCode.ts';
import type { AuthStatus } from '../authStatus.ts';
import {
  areaCodeSchema,
  personNameSchema,
  phoneSchema,
  preprocess,
  recordIdSchema,
  uploadedFileSchema,
} from './fields.ts';
import { clearanceAccountSchema, enterpriseNameSchema, type NoticeData } from './account.ts';
import { partnerCodeSchema } from './partner.ts';

export { clearanceAccountSchema, enterpriseNameSchema };

// ---- Limits ------------------------------------------------------------------------------------

/** Largest certification file: 10 MB (DOMAIN.md, Auth file). */
export const maxAuthFileBytes = 10 * 1024 * 1024;
/** What an upload may be, detected from its first bytes (the declared type is not trusted). */
export const authFileContentTypes = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type AuthFileContentType = (typeof authFileContentTypes)[number];
/** For the file picker's `accept`: the types above and their usual extensions. */
export const authFileAccept = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';
/** The two documents of certificate certification. */
export const authFileKinds = ['businessLicence', 'authLetter'] as const;
export type AuthFileKindName = (typeof authFileKinds)[number];
/** At most this many electricity account numbers per enterprise. */
export const maxElectricityAccounts = 20;
/** Annual consumption bound, MWh per year (the content's scheme-parameter queries use the same). */
export const maxAnnualConsumption = 100_000_000;
/** How long a bank challenge may be signed: 5 minutes. */
export const bankChallengeSeconds = 300;

// ---- Fields ------------------------------------------------------------------------------------

/** An optional field for which an empty form value ('' or null) means "not given". */
function optional<S extends z.ZodMiniType>(schema: S) {
  return preprocess((value) => (value === '' || value === null ? undefined : value), z.optional(schema));
}

export const enterpriseIdSchema = recordIdSchema;

/** 统一社会信用代码: 18 characters with a valid GB 32100-2015 check character; spaces dropped, upper-cased. */
export const creditCodeSchema = z.pipe(
  z.pipe(z.string(), z.transform(normalizeCreditCode)),
  z.string().check(z.length(18), z.refine(isValidCreditCode, { message: 'enterprise.validation.creditCode' })),
);

export const legalPersonSchema = personNameSchema;
export const contactNameSchema = personNameSchema;
export const contactPhoneSchema = phoneSchema;
export const addressSchema = z.string().check(z.trim(), z.minLength(2), z.maxLength(200));
/** GB/T 4754 section letter from the industry list (GET system/getIndustryList); the server checks it is listed. */
export const industrySchema = z.string().check(z.trim(), z.regex(/^[A-T]$/));
/** Province code; the server checks it is one of the regions. */
export const enterpriseAreaCodeSchema = areaCodeSchema;
/** A code of the `voltageLevel` dictionary (kv0_4, kv10, …); the server checks it is listed. */
export const voltageLevelSchema = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9_-]{1,16}$/));
/** 用电户号: 6–32 letters or digits. */
export const electricityAccountSchema = z.string().check(z.trim(), z.regex(/^[A-Za-z0-9]{6,32}$/));

/** A list, or one string of numbers separated by commas, semicolons or blanks; duplicates refused. */
export const electricityAccountsSchema = preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(/[\s,，;；、]+/)
          .map((part) => part.trim())
          .filter((part) => part !== '')
      : value,
  z.array(electricityAccountSchema).check(
    z.minLength(1),
    z.maxLength(maxElectricityAccounts),
    z.refine((list) => new Set(list).size === list.length, { message: 'enterprise.validation.duplicateAccount' }),
  ),
);

/** MWh per year, up to 3 decimals; empty = unknown (null). */
export const annualConsumptionSchema = preprocess(
  (value) => (value === '' || value === undefined ? null : value),
  z.nullable(z.coerce.number().check(z.gte(0), z.lte(maxAnnualConsumption))),
);

/** The fields of the enterprise record a user fills in, with their rules. */
export const enterpriseFields = {
  enterpriseName: enterpriseNameSchema,
  creditCode: creditCodeSchema,
  legalPerson: legalPersonSchema,
  contactName: contactNameSchema,
  contactPhone: contactPhoneSchema,
  address: addressSchema,
  industry: industrySchema,
  areaCode: enterpriseAreaCodeSchema,
  clearanceAccount: clearanceAccountSchema,
  electricityAccounts: electricityAccountsSchema,
  voltageLevel: voltageLevelSchema,
  annualConsumption: annualConsumptionSchema,
};
export type EnterpriseFieldName = keyof typeof enterpriseFields;
export const enterpriseFieldNames = Object.keys(enterpriseFields) as EnterpriseFieldName[];

/** Editing the certified core fields of a certified enterprise sends it back to review (DOMAIN.md). */
export const certifiedCoreFields = ['enterpriseName', 'creditCode'] as const satisfies readonly EnterpriseFieldName[];

// ---- Calls -------------------------------------------------------------------------------------

/** The whole record, every field required but the annual consumption; unknown keys refused. */
export const enterpriseRecord = z.strictObject({
  ...enterpriseFields,
  annualConsumption: z.optional(annualConsumptionSchema),
  /**
   * 推荐机构代码: the code of the partner institution that referred the enterprise. Not a
   * column of its own: the server resolves it to enterprises.partner_id (unknown → field error).
   * Absent or empty leaves the referral as it is.
   */
  partnerCode: optional(partnerCodeSchema),
});
export type EnterpriseRecordInput = z.input<typeof enterpriseRecord>;
export type EnterpriseRecord = z.output<typeof enterpriseRecord>;

/** POST enterpriseuser/add — a user without an enterprise creates one (auth status 0). */
export const enterpriseAddBody = enterpriseRecord;
export type EnterpriseAddBody = z.input<typeof enterpriseAddBody>;

/** POST enterpriseuser/edit — the whole record of the user's enterprise `id`. */
export const enterpriseEditBody = z.strictObject({ id: enterpriseIdSchema, ...enterpriseRecord.shape });
export type EnterpriseEditBody = z.input<typeof enterpriseEditBody>;

/**
 * POST enterpriseuser/temporarySave — a draft: any subset, each field present checked by its rule,
 * empty ones left as they are. Without `id` it creates the enterprise and then needs
 * enterpriseName and clearanceAccount (what binding needs).
 */
export const enterpriseDraftBody = z
  .strictObject({
    id: optional(enterpriseIdSchema),
    enterpriseName: optional(enterpriseNameSchema),
    creditCode: optional(creditCodeSchema),
    legalPerson: optional(legalPersonSchema),
    contactName: optional(contactNameSchema),
    contactPhone: optional(contactPhoneSchema),
    address: optional(addressSchema),
    industry: optional(industrySchema),
    areaCode: optional(enterpriseAreaCodeSchema),
    clearanceAccount: optional(clearanceAccountSchema),
    electricityAccounts: optional(electricityAccountsSchema),
    voltageLevel: optional(voltageLevelSchema),
    annualConsumption: optional(annualConsumptionSchema),
    partnerCode: optional(partnerCodeSchema),
  })
  .check(
    z.refine((body) => body.id !== undefined || body.enterpriseName !== undefined, {
      message: 'validation.required',
      path: ['enterpriseName'],
    }),
    z.refine((body) => body.id !== undefined || body.clearanceAccount !== undefined, {
      message: 'validation.required',
      path: ['clearanceAccount'],
    }),
  );
export type EnterpriseDraftBody = z.input<typeof enterpriseDraftBody>;
export type EnterpriseDraft = z.output<typeof enterpriseDraftBody>;

/**
 * POST enterpriseuser/editfield — one field of the record (the electricity accounts may be one
 * comma-separated string). This checks the call's shape; the value is then checked by the field's
 * own rule with `enterpriseFieldValue(field)`, so its message names the field.
 */
export const enterpriseEditFieldBody = z.strictObject({
  id: enterpriseIdSchema,
  field: z.enum(enterpriseFieldNames as [EnterpriseFieldName, ...EnterpriseFieldName[]]),
  value: z._default(
    z.union([
      z.string().check(z.maxLength(2000)),
      z.array(z.string().check(z.maxLength(64))).check(z.maxLength(maxElectricityAccounts)),
    ]),
    '',
  ),
});

/** `{ [field]: value }` checked by that field's rule (editfield's second step, and a form's single field). */
export function enterpriseFieldValue<F extends EnterpriseFieldName>(field: F) {
  return z.object({ [field]: enterpriseFields[field] } as { [K in F]: (typeof enterpriseFields)[K] });
}
export type EnterpriseEditFieldBody = z.input<typeof enterpriseEditFieldBody>;

/** Calls that name only the enterprise: editAuthInfo, del. */
export const enterpriseIdBody = z.object({ id: enterpriseIdSchema });
export type EnterpriseIdBody = z.input<typeof enterpriseIdBody>;

/** GET enterpriseuser/get — without id: the user's own. */
export const enterpriseGetQuery = z.object({ id: optional(enterpriseIdSchema) });
export type EnterpriseGetQuery = z.input<typeof enterpriseGetQuery>;

/** GET /api/front/hgdsel/set/getEnterpriseUserByOrgId — orgId is the current user's id. */
export const enterpriseByOrgIdQuery = z.object({ orgId: enterpriseIdSchema });
export type EnterpriseByOrgIdQuery = z.input<typeof enterpriseByOrgIdQuery>;

/** POST enterpriseauthfile/upload (multipart): the kind and the file; size and type are checked again by content. */
export const authFileUploadBody = z.object({
  kind: z.enum(authFileKinds),
  file: uploadedFileSchema.check(
    z.refine((file) => file.size > 0, { message: 'enterprise.validation.fileEmpty' }),
    z.refine((file) => file.size <= maxAuthFileBytes, { message: 'enterprise.validation.fileTooLarge' }),
  ),
});
export type AuthFileUploadBody = z.input<typeof authFileUploadBody>;

/** POST enterpriseauthfile/deleteElectricity; GET enterpriseauthfile/download?id= — a file by its id. */
export const authFileIdBody = z.object({ id: enterpriseIdSchema });
export type AuthFileIdBody = z.input<typeof authFileIdBody>;

/** A bank account number: 8–32 digits (spaces between groups dropped). */
export const bankAccountNoSchema = z.pipe(
  z.pipe(
    z.string(),
    z.transform((value) => value.replace(/\s+/g, '')),
  ),
  z.string().check(z.regex(/^\d{8,32}$/)),
);

/** GET /api/front/thirdparty/getIcbcAccountInfo */
export const icbcAccountInfoQuery = z.object({ accountNo: bankAccountNoSchema });
export type IcbcAccountInfoQuery = z.input<typeof icbcAccountInfoQuery>;

/** The challenge handed out by getIcbcAccountInfo: 32 random bytes as 64 hex characters. */
export const bankChallengeSchema = z.string().check(z.regex(/^[0-9a-f]{64}$/));
/** A signature as the key returns it: base64 or base64url, Ed25519 = 64 bytes. */
export const bankSignatureSchema = z.string().check(z.regex(/^[A-Za-z0-9+/_-]{40,200}={0,2}$/));
export const bankCertSerialSchema = z.string().check(z.regex(/^[A-Za-z0-9-]{4,64}$/));
/** The key's PIN: 6 digits. */
export const usbKeyPinSchema = z.string().check(z.regex(/^\d{6}$/));

/** POST /api/sandbox/icbc/usbkey/sign — the sandbox's stand-in for the bank's signing driver. */
export const usbKeySignBody = z.object({
  accountNo: bankAccountNoSchema,
  pin: usbKeyPinSchema,
  challenge: bankChallengeSchema,
});
export type UsbKeySignBody = z.input<typeof usbKeySignBody>;

/** POST /api/front/thirdparty/saveEmp — the key holder and the signed challenge. */
export const saveEmpBody = z.object({
  accountNo: bankAccountNoSchema,
  empName: personNameSchema,
  empNo: z.string().check(z.trim(), z.regex(/^[A-Za-z0-9-]{1,32}$/)),
  challenge: bankChallengeSchema,
  signature: bankSignatureSchema,
  certSerial: bankCertSerialSchema,
});
export type SaveEmpBody = z.input<typeof saveEmpBody>;

/** POST /api/ops/certification/approve */
export const certificationApproveBody = z.object({ id: enterpriseIdSchema });
export type CertificationApproveBody = z.input<typeof certificationApproveBody>;

/** POST /api/ops/certification/return — the comment tells the owner what to fix. */
export const certificationReturnBody = z.object({
  id: enterpriseIdSchema,
  comment: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)),
});
export type CertificationReturnBody = z.input<typeof certificationReturnBody>;

/**
 * The numbers of an enterprise its owner sees whole and staff see masked (lib/masking.ts); an
 * operator who must have one asks for it, and the audit trail records that they did.
 */
export const revealableEnterpriseFields = ['contactPhone', 'clearanceAccount'] as const;
export type RevealableEnterpriseField = (typeof revealableEnterpriseFields)[number];

/** POST /api/ops/certification/reveal */
export const enterpriseRevealBody = z.object({ id: enterpriseIdSchema, field: z.enum(revealableEnterpriseFields) });
export type EnterpriseRevealBody = z.input<typeof enterpriseRevealBody>;

/** Its answer: the one whole value. */
export const enterpriseRevealAnswer = z.object({ field: z.enum(revealableEnterpriseFields), value: z.string() });
export type EnterpriseRevealData = z.infer<typeof enterpriseRevealAnswer>;

// ---- Answers (`data` of the envelope) ----------------------------------------------------------

export type AuthType = 'certificate' | 'usbkey';

/** A certification file as the pages list it; `url` opens it (owner and operators only). */
export interface AuthFileData {
  id: number;
  kind: AuthFileKindName;
  originalName: string;
  contentType: AuthFileContentType;
  size: number;
  /** ISO time. */
  createdAt: string;
  /** GET enterpriseauthfile/download?id=… */
  url: string;
}

/** The bank account the enterprise certified with (USB key); the number is masked. */
export interface BankBindingData {
  bank: string;
  /** e.g. `6222 **** **** 1234`. */
  accountNoMasked: string;
  accountName: string;
  empName: string;
  /** ISO time. */
  boundAt: string;
}

/** GET enterpriseuser/get and the answer of every call that changes the record. */
export interface EnterpriseData {
  id: number;
  enterpriseName: string;
  creditCode: string | null;
  legalPerson: string;
  contactName: string;
  contactPhone: string;
  address: string;
  /** GB/T 4754 section letter, '' when not given. */
  industry: string;
  /** The industry's name in the list, '' when not given. */
  industryName: string;
  areaCode: string | null;
  areaName: string;
  clearanceAccount: string;
  electricityAccounts: string[];
  /** `voltageLevel` dictionary code, '' when not given. */
  voltageLevel: string;
  /** MWh per year. */
  annualConsumption: number | null;
  /** 0 not certified, 1 under review, 2 certified, 3 returned. */
  authStatus: AuthStatus;
  authType: AuthType | null;
  /** The operator's comment of the last return ('' if none). */
  reviewComment: string;
  /** Saved with temporarySave and not yet saved whole. */
  draft: boolean;
  submittedAt: string | null;
  reviewedAt: string | null;
  createdAt: string;
  updatedAt: string;
  files: AuthFileData[];
  bankBinding: BankBindingData | null;
  /** Whether enterpriseuser/del is allowed now (status 0 or 3, no orders at all). */
  canDelete: boolean;
  /** The referring partner institution's code and name (推荐机构), null when none. */
  partnerCode: string | null;
  partnerName: string | null;
  /** Whether contactPhone and clearanceAccount are masked: the reader is not the owner. */
  masked: boolean;
}

/**
 * Columns of enterpriseuser/getAntTable. Searchable (keyword, liker): enterpriseName, creditCode,
 * clearanceAccount, contactName. Filterable: id, areaCode, industry, authStatus, authType. Ranges:
 * submittedAt, reviewedAt, createdAt. Sortable: all but industry and contactName. Default order:
 * submittedAt ascending (oldest waiting first), then createdAt descending.
 */
export const enterpriseTableColumns = [
  'id',
  'enterpriseName',
  'creditCode',
  'clearanceAccount',
  'areaCode',
  'industry',
  'contactName',
  'authStatus',
  'authType',
  'submittedAt',
  'reviewedAt',
  'createdAt',
] as const;
export type EnterpriseTableColumn = (typeof enterpriseTableColumns)[number];

/** The answer of enterpriseuser/getAntTable (rows carry only the selected columns when `select` is given). */
export interface EnterpriseTableData {
  result: Partial<EnterpriseRowData>[];
  totalCount: number;
}

/** One row of enterpriseuser/getAntTable (`{ result, totalCount }`). */
export interface EnterpriseRowData {
  id: number;
  enterpriseName: string;
  creditCode: string | null;
  clearanceAccount: string;
  areaCode: string | null;
  industry: string;
  contactName: string;
  authStatus: number;
  authType: AuthType | null;
  submittedAt: string | null;
  reviewedAt: string | null;
  createdAt: string;
}

/** GET /api/front/thirdparty/getIcbcAccountInfo — the challenge is signed by the key next. */
export interface IcbcAccountInfoData {
  accountNo: string;
  accountName: string;
  bankName: string;
  branchName: string;
  challenge: string;
  /** ISO time after which the challenge is refused. */
  expiresAt: string;
}

/** POST /api/sandbox/icbc/usbkey/sign */
export interface UsbKeySignatureData {
  signature: string;
  certSerial: string;
}

/** The certification notices of the enterprise (listNotices with ref `enterprise:<id>`). */
export type EnterpriseNoticeData = NoticeData;
