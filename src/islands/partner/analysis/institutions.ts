/**
 * The visible institutions (the spec's `partnerTree`, from getAllPartnersByEmpId) as the pickers
 * list them: depth-first in the tree's order (roots first, children by code), each with its
 * depth for the indent, so a flat native list still reads as the tree.
 */
import type { PartnerLevel } from '../../../lib/partner.ts';
import type { PartnerTreeNode } from '../../../lib/schemas/partner.ts';

export interface InstitutionOption {
  id: number;
  code: string;
  name: string;
  level: PartnerLevel;
  depth: number;
}

export function flattenTree(nodes: readonly PartnerTreeNode[], depth = 0, into: InstitutionOption[] = []): InstitutionOption[] {
  for (const node of nodes) {
    into.push({ id: node.id, code: node.code, name: node.name, level: node.level, depth });
    flattenTree(node.children ?? [], depth + 1, into);
  }
  return into;
}

/** An option's text in a native select: indented by depth (no-break spaces survive in options). */
export function indentedName(option: InstitutionOption): string {
  return `${'\u00a0\u00a0\u00a0'.repeat(option.depth)}${option.name}`;
}

/** Institutions by id, for names of chosen ids before the answer brings them. */
export function namesById(options: readonly InstitutionOption[]): Map<number, string> {
  return new Map(options.map((option) => [option.id, option.name]));
}

/** Toggle one id in a chosen list, keeping the order chosen and at most `max` ids. */
export function toggleId(chosen: readonly number[], id: number, max: number): number[] {
  if (chosen.includes(id)) return chosen.filter((other) => other !== id);
  return chosen.length >= max ? [...chosen] : [...chosen, id];
}
