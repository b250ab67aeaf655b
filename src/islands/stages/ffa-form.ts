import type { StageCreateInput } from '../../lib/api/stages.ts';
import { DEFAULT_FFA_POINTS, FFA_LIMITS, type StageSettings } from '../../lib/domain/stage/format.ts';
import { t } from '../../lib/i18n/index.ts';

/** A free-for-all stage's fields as typed (issue 59): lobby size, games, who goes on, the points. */
export interface FfaForm {
  lobbySize: string;
  games: string;
  /** Empty when every participant fits one lobby (the final). */
  advance: string;
  /** Points by placement, «10, 6, 5, 4…». */
  placementPoints: string;
  killPoints: string;
}

export const defaultFfaForm = (): FfaForm => ({
  lobbySize: '16',
  games: '3',
  advance: '4',
  placementPoints: DEFAULT_FFA_POINTS.placement.join(', '),
  killPoints: String(DEFAULT_FFA_POINTS.kill),
});

/** The form from a stage plan's settings (a clone's next stage). */
export const ffaFormOf = (settings: StageSettings): FfaForm => {
  const form = defaultFfaForm();
  const points = settings.points && 'placement' in settings.points ? settings.points : null;
  return {
    lobbySize: settings.lobbySize === undefined ? form.lobbySize : String(settings.lobbySize),
    games: settings.games === undefined ? form.games : String(settings.games),
    advance: settings.advance === undefined ? '' : String(settings.advance),
    placementPoints: points ? points.placement.join(', ') : form.placementPoints,
    killPoints: points ? String(points.kill) : form.killPoints,
  };
};

const whole = (text: string, min: number, max: number): number | null => {
  const value = text.trim();
  const n = Number(value);
  return /^\d+$/.test(value) && n >= min && n <= max ? n : null;
};

/** The settings a free-for-all stage is created with, or the first problem in the reader's language. */
export function ffaSettings(form: FfaForm): { ok: true; settings: NonNullable<StageCreateInput['settings']> } | { ok: false; message: string } {
  const lobbySize = whole(form.lobbySize, FFA_LIMITS.lobbySize.min, FFA_LIMITS.lobbySize.max);
  if (lobbySize === null) return { ok: false, message: t('stageAdmin.ffa.lobbySizeInvalid', { min: FFA_LIMITS.lobbySize.min, max: FFA_LIMITS.lobbySize.max }) };
  const games = whole(form.games, FFA_LIMITS.games.min, FFA_LIMITS.games.max);
  if (games === null) return { ok: false, message: t('stageAdmin.ffa.gamesInvalid', { max: FFA_LIMITS.games.max }) };
  const advance = form.advance.trim() === '' ? undefined : whole(form.advance, 1, lobbySize - 1);
  if (advance === null) return { ok: false, message: t('stageAdmin.ffa.advanceInvalid', { max: lobbySize - 1 }) };
  const placement = form.placementPoints
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((part) => whole(part, 0, FFA_LIMITS.points));
  if (placement.length === 0 || placement.length > FFA_LIMITS.lobbySize.max || placement.some((p) => p === null)) {
    return { ok: false, message: t('stageAdmin.ffa.placementInvalid', { max: FFA_LIMITS.points }) };
  }
  const kill = whole(form.killPoints, 0, FFA_LIMITS.points);
  if (kill === null) return { ok: false, message: t('stageAdmin.ffa.killInvalid', { max: FFA_LIMITS.points }) };
  return { ok: true, settings: { lobbySize, games, ...(advance === undefined ? {} : { advance }), points: { placement: placement as number[], kill } } };
}
