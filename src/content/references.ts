/**
 * The fields whose value names other content (a news item's type, a selling set's company, a set's
 * voltage levels, …), each with the content it names: the table the studio's editor draws those
 * fields from (choices instead of free text) and the studio's choices call fills. The same
 * references the build's cross-checks refuse when they name nothing (`unknown …` in load.ts);
 * tests/unit/contentReferences.test.ts proves each row is one of them.
 *
 * Pure (no Node, no Astro), like kinds.ts beside it: the server and the islands share it.
 */
import { kindOfPath, type ContentKind } from './paths.ts';

/** What a reference names: a kind of content, or a dictionary of dictionaries.yaml. */
export const referenceSources = [
  'region',
  'bizType',
  'product',
  'orgCom',
  'set',
  'newsType',
  'voltageLevel',
  'industry',
  'helpDocument',
  'notice',
] as const;
export type ReferenceSource = (typeof referenceSources)[number];

/** One thing a reference may name: its code (the value written in the data) and its human name. */
export interface Choice {
  value: string;
  name: string;
  /** Where it applies (an orgCom's sales regions, a set's region). */
  areaCodes?: string[];
  /** A set's product. */
  productId?: string;
}

export type Choices = Readonly<Record<ReferenceSource, readonly Choice[]>>;

/** What a narrowing reads: the edited item's region, and the other fields of the object the reference sits in. */
export interface ReferenceScope {
  areaCode: string | undefined;
  siblings: Readonly<Record<string, unknown>>;
}

export interface ReferenceField {
  kind: ContentKind;
  /** The field's dotted path in the item's data; `*` stands for every entry of a list. */
  field: string;
  source: ReferenceSource;
  /**
   * The field is a list of such values: `ordered` when its order is shown (menu or display
   * order: entries, each chosen, moved up and down), `set` when it is not (ticked in a group).
   * Absent: the field holds one value.
   */
  many?: 'ordered' | 'set';
  /** Only some of the source fit here (the build refuses the others); the rest are left out of the choices. */
  narrow?: (choice: Choice, scope: ReferenceScope) => boolean;
}

/** Every reference field of every kind. */
export const referenceFields: readonly ReferenceField[] = [
  { kind: 'region', field: 'bizTypeIds', source: 'bizType', many: 'ordered' },
  { kind: 'region', field: 'productIds', source: 'product', many: 'ordered' },
  { kind: 'region', field: 'homeNotices.*.noticeId', source: 'notice' },
  { kind: 'orgComs', field: '*.areaCodes', source: 'region', many: 'set' },
  { kind: 'bizItem', field: 'bizTypeId', source: 'bizType' },
  { kind: 'bizItem', field: 'bizItemProducts.*.productId', source: 'product' },
  {
    kind: 'bizItem',
    field: 'bizItemProducts.*.setId',
    source: 'set',
    // A set of that entry's product in the item's own region.
    narrow: (choice, scope) =>
      choice.areaCodes?.includes(scope.areaCode ?? '') === true && choice.productId === scope.siblings['productId'],
  },
  { kind: 'set', field: 'productId', source: 'product' },
  { kind: 'set', field: 'schemeParams.*.voltageLevels', source: 'voltageLevel', many: 'set' },
  { kind: 'set', field: 'filter.voltageLevels', source: 'voltageLevel', many: 'set' },
  { kind: 'set', field: 'filter.industries', source: 'industry', many: 'set' },
  {
    kind: 'set',
    field: 'sellingSets.*.orgComId',
    source: 'orgCom',
    // A company that sells in the set's region.
    narrow: (choice, scope) => choice.areaCodes?.includes(scope.areaCode ?? '') === true,
  },
  { kind: 'news', field: 'newsTypeCode', source: 'newsType' },
  { kind: 'helpCatalogue', field: 'sections.*.documents', source: 'helpDocument', many: 'ordered' },
];

/** The reference fields of one kind. */
export function referenceFieldsOf(kind: ContentKind): ReferenceField[] {
  return referenceFields.filter((entry) => entry.kind === kind);
}

// ---------------------------------------------------------------------------------------------
// The choices: what each source holds in the content the editor would publish

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const sortOf = (value: unknown): number =>
  typeof record(value)['sort'] === 'number' ? (record(value)['sort'] as number) : 0;

/** Entries of a list file as choices, in the list's `sort` order when it has one. */
function entriesOf(data: unknown, valueKey: string, nameKey: string, sorted: boolean): Choice[] {
  const entries = list(data).filter((entry) => text(record(entry)[valueKey]) !== '');
  const ordered = sorted
    ? [...entries].sort(
        (a, b) => sortOf(a) - sortOf(b) || text(record(a)[valueKey]).localeCompare(text(record(b)[valueKey])),
      )
    : entries;
  return ordered.map((entry) => ({ value: text(record(entry)[valueKey]), name: text(record(entry)[nameKey]) }));
}

/**
 * The choices of every source in `items` — each item's path and the data it would publish (the
 * published data with its draft applied; a deleted item left out) — in the order the site shows
 * them.
 */
export function choicesOfItems(items: Iterable<{ path: string; data: unknown }>): Choices {
  const choices: Record<ReferenceSource, Choice[]> = Object.fromEntries(
    referenceSources.map((source) => [source, []]),
  ) as unknown as Record<ReferenceSource, Choice[]>;
  const regions: { choice: Choice; sort: number }[] = [];
  for (const { path, data } of items) {
    const found = kindOfPath(path);
    if (!found || data === null || data === undefined) continue;
    const { kind, key } = found;
    const fields = record(data);
    switch (kind) {
      case 'region':
        regions.push({ choice: { value: key.id ?? '', name: text(fields['name']) }, sort: sortOf(data) });
        break;
      case 'bizTypes':
        choices.bizType = entriesOf(data, 'bizTypeId', 'name', true);
        break;
      case 'products':
        choices.product = entriesOf(data, 'productId', 'name', true);
        break;
      case 'orgComs':
        choices.orgCom = list(data).map((entry) => ({
          value: text(record(entry)['orgComId']),
          name: text(record(entry)['name']),
          areaCodes: list(record(entry)['areaCodes']).map(text),
        }));
        break;
      case 'set':
        choices.set.push({
          value: key.id ?? '',
          name: text(fields['name']),
          areaCodes: [key.areaCode ?? ''],
          productId: text(fields['productId']),
        });
        break;
      case 'dictionaries':
        choices.newsType = entriesOf(fields['newsType'], 'code', 'name', true);
        choices.voltageLevel = entriesOf(fields['voltageLevel'], 'code', 'name', true);
        break;
      case 'industries':
        choices.industry = entriesOf(data, 'code', 'name', false);
        break;
      case 'helpDocument':
        choices.helpDocument.push({ value: key.id ?? '', name: text(fields['title']) });
        break;
      case 'notice':
        choices.notice.push({ value: key.id ?? '', name: text(fields['title']) });
        break;
      default:
        break;
    }
  }
  choices.region = regions
    .sort((a, b) => a.sort - b.sort || a.choice.value.localeCompare(b.choice.value))
    .map((entry) => entry.choice);
  choices.set.sort(
    (a, b) => (a.areaCodes?.[0] ?? '').localeCompare(b.areaCodes?.[0] ?? '') || a.value.localeCompare(b.value),
  );
  choices.helpDocument.sort((a, b) => a.value.localeCompare(b.value));
  choices.notice.sort((a, b) => a.value.localeCompare(b.value));
  return choices;
}
