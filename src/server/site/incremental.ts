/**
 * Full or incremental (docs/editing-content.md, "Incremental and full builds"): a publication
 * re-renders only the pages its changes can alter when the published build can serve as its base —
 * it has a page graph (src/content/pageGraph.ts) and was built by the same code. Otherwise, or when
 * asked, every page is built.
 */
import path from 'node:path';
import { changedKeys, contentFingerprints } from '../../content/dependencies.ts';
import {
  buildSettingValues,
  codeVersion,
  readPageGraph,
  sourceVersion,
  type IncrementalPlan,
} from '../../content/pageGraph.ts';
import type { SiteContent } from '../../content/schemas.ts';

export type BuildPlan =
  { mode: 'full'; reason: string } | { mode: 'incremental'; baseBuildId: number; plan: IncrementalPlan };

export interface PlanInput {
  /** The published build and its directory on this machine (dist/ and content/), if there is one. */
  base: { buildId: number; dir: string } | undefined;
  /** The content to build, loaded (tagged) by the loader. */
  content: SiteContent;
  /** Loads a content directory (the base's). */
  load: (dir: string) => SiteContent;
  /** The project the build runs in (its code version). */
  projectRoot: string;
  /** Every page, whatever changed (an operator's choice, a new release). */
  full?: boolean;
}

export function planBuild(input: PlanInput): BuildPlan {
  if (input.full) return { mode: 'full', reason: 'a full build was asked for' };
  if (!input.base) return { mode: 'full', reason: 'nothing is published yet' };
  const baseDir = path.join(input.base.dir, 'dist');
  const graph = readPageGraph(baseDir);
  if (!graph) return { mode: 'full', reason: 'the published build has no page graph' };
  const sources = sourceVersion(input.projectRoot);
  if (graph.codeVersion !== codeVersion(input.projectRoot, sources)) {
    // The pages depend on these settings too (canonical URLs, the QR code): a release built without
    // the deployment's settings costs its first publication a full build. Say which one.
    const here = buildSettingValues();
    const differing =
      graph.sourceVersion === sources && graph.settings
        ? Object.keys(here).filter((name) => graph.settings?.[name] !== here[name])
        : [];
    if (differing.length === 0) return { mode: 'full', reason: 'the code changed since the published build' };
    return {
      mode: 'full',
      reason: `the published build was made with other settings: ${differing
        .map((name) => `${name} "${graph.settings?.[name] ?? ''}" there, "${here[name] ?? ''}" here`)
        .join('; ')} (build a release with the deployment's settings: docs/deployment.md)`,
    };
  }
  const before = contentFingerprints(input.load(path.join(input.base.dir, 'content')));
  const changed = [...changedKeys(before, contentFingerprints(input.content))].sort();
  return { mode: 'incremental', baseBuildId: input.base.buildId, plan: { baseDir, changed } };
}
