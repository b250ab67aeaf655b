/** One game's score as typed: strings, so an empty field stays empty. */
export interface GameScoreInput {
  a: string;
  b: string;
}

interface Props {
  games: GameScoreInput[];
  /** «Гра 2», «Карта 2»: what a row is called. */
  rowLabel: (number: number) => string;
  /** The field's accessible name: the row's and the side's («Карта 2: Kozak»). */
  fieldLabel: (number: number, slot: 'a' | 'b') => string;
  onChange: (games: GameScoreInput[]) => void;
}

/** A best-of's games, a row each with both sides' scores (the organisers' result form and the players' report). */
export function GameScoreRows({ games, rowLabel, fieldLabel, onChange }: Props) {
  return (
    <>
      {games.map((game, i) => (
        <div key={i} className="grid grid-cols-[4rem_1fr_1fr] items-center gap-2 text-sm">
          <span className="font-medium">{rowLabel(i + 1)}</span>
          {(['a', 'b'] as const).map((slot) => (
            <input
              key={slot}
              type="number"
              inputMode="numeric"
              min={0}
              max={9999}
              aria-label={fieldLabel(i + 1, slot)}
              className="field min-h-11 tabular-nums"
              value={game[slot]}
              onChange={(event) => onChange(games.map((g, j) => (j === i ? { ...g, [slot]: event.target.value } : g)))}
            />
          ))}
        </div>
      ))}
    </>
  );
}
