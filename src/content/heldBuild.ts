/**
 * A build held ready (server/site/buildCommand.ts `heldAstroBuildCommand`): `astro build` started
 * before a publication asks for it, with HELD_BUILD=1 and an IPC channel to its worker. Once the
 * site's code is bundled and loaded (the prerenderer's setup: integrations/incremental.ts) it says
 * `ready` and waits for its order — the publication's content directory and incremental plan,
 * set in its environment before any page reads them; the pages read their content at render time
 * (load.ts `defaultContentDir`), never at bundling. What an `astro build` costs before its first
 * page (start, configuration, content sync, bundling) is then spent before the editor clicks.
 */

/** Set (to `1`) in the environment of a held build. */
export const heldBuildVariable = 'HELD_BUILD';

/** The held build's message once it waits for its order. */
export interface HeldBuildReady {
  type: 'ready';
}

/** The order a held build waits for: the environment of its publication (CONTENT_DIR, INCREMENTAL_PLAN). */
export interface HeldBuildOrder {
  type: 'build';
  env: Record<string, string>;
}

/** Whether this process is a held build (started with the variable and an IPC channel). */
export function isHeldBuild(): boolean {
  return process.env[heldBuildVariable] === '1' && typeof process.send === 'function';
}

/** Says `ready` to the worker, then waits for the order and applies its environment. */
export function awaitBuildOrder(): Promise<void> {
  return new Promise((resolve) => {
    // The channel is unref'd (a finished build must not wait on it); while waiting, it is what keeps the process alive.
    process.channel?.ref();
    process.once('message', (order: HeldBuildOrder) => {
      Object.assign(process.env, order.env);
      process.channel?.unref();
      resolve();
    });
    process.send?.({ type: 'ready' } satisfies HeldBuildReady);
  });
}
