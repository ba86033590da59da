/// <reference types="astro/client" />

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on first intent (pointer, touch, focus, key); see src/integrations/intent-directive.ts. */
    'client:intent'?: boolean | 'signed-in';
  }
}
export {};
