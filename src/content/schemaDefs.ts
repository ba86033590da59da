/**
 * The parts of zod 4's internal schema definition (`_zod.def`) that the content's walkers read:
 * rendering Markdown fields (schemas.ts `mapMarkdownFields`) and localizing (translations.ts).
 */
import type { z } from 'zod/mini';

export interface SchemaDef {
  type: string;
  innerType?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  out?: z.core.$ZodType;
}

export function defOf(schema: z.core.$ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def;
}

/**
 * The schema a wrapper stands for (optional, nullable, default, readonly, catch, …: its inner
 * type; a pipe: its output, which a parsed value is); undefined for a schema that wraps nothing.
 */
export function wrappedSchema(def: SchemaDef): z.core.$ZodType | undefined {
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType;
    case 'pipe':
      return def.out;
    default:
      return undefined;
  }
}
