import type { StageFormat, StageSeeding, StageSettings } from './format.ts';

/**
 * A tournament's stage plan (issue 56): the stages a clone of a weekly cup starts with as a
 * suggestion — each one's format, name, seeding and settings, and for playoffs which earlier stage
 * feeds them and how many of each group go on. Nobody plays in a plan: the organiser still creates
 * each stage (the form opens with the next step filled in), once the participants are known. Pure.
 */
export interface StagePlanStep {
  name: string;
  format: StageFormat;
  /** Never `manual`: a hand-made order names the source's participants, not the clone's. */
  seeding: Exclude<StageSeeding, 'manual'>;
  settings: StageSettings;
  /** Playoffs: fed by the plan's stage `stage` (1 for the first), its top `advance` of each group. */
  from?: { stage: number; advance: number };
}

/** What of a stage a plan keeps. */
export interface PlannedStage {
  id: string;
  number: number;
  name: string;
  format: StageFormat;
  seeding: StageSeeding;
  settings: StageSettings;
  fromStageId: string | null;
  advance: number | null;
}

/** The plan of a tournament's stages as created, in their order; a hand-made seeding becomes application order. */
export function planOf(stages: readonly PlannedStage[]): StagePlanStep[] {
  const ordered = [...stages].sort((a, b) => a.number - b.number);
  const numberOf = new Map(ordered.map((stage, index) => [stage.id, index + 1]));
  return ordered.map((stage) => {
    const step: StagePlanStep = {
      name: stage.name,
      format: stage.format,
      seeding: stage.seeding === 'manual' ? 'order' : stage.seeding,
      settings: structuredClone(stage.settings),
    };
    const from = stage.fromStageId === null ? undefined : numberOf.get(stage.fromStageId);
    if (from !== undefined && stage.advance !== null) step.from = { stage: from, advance: stage.advance };
    return step;
  });
}
