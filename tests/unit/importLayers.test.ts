/**
 * The imports of src/ as scripts/import-layers.ts counts them: what the boundary rule in
 * eslint.config.js cannot see. The rule lets services and the API's frame import each other, so
 * only this test notices a new import circle in src/server (services throwing through envelope.ts
 * once tied types.ts, site/* and studio/* into one); and it sees type references (`typeof import`).
 */
import { describe, expect, it } from 'vitest';
import { importLayers } from '../../scripts/import-layers.ts';

describe('imports between layers', () => {
  const found = importLayers();

  it('has no import circle in src/server but the table definitions whose foreign keys point at each other', () => {
    expect(found.serverCircles).toEqual([
      ['src/server/db/schema/accounts.ts', 'src/server/db/schema/orders.ts', 'src/server/db/schema/partners.ts'],
    ]);
  });

  it('points down, but for the dev server loading the API through Vite', () => {
    expect(found.upward).toEqual(['src/integrations/index.ts → src/server/main.ts']);
  });
});
