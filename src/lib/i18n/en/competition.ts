import type { competition as uk } from "../uk/competition.ts";

/** What the competition engine's API answers (issue 21): stages created, results saved, refusals. */
export const competition: Record<keyof typeof uk, string> = {
  "stage.created": "Stage created: {participants}",
  "stage.notFound": "Stage not found",
  "stage.finished": "The tournament is finished: its stages no longer change",
  "stage.manualParticipants":
    "For manual seeding, list every participant of the stage exactly once",
  "stage.fromNotFound": "The earlier stage is not in this tournament",
  "stage.fromNotComplete":
    "The earlier stage is not finished yet: play all its matches first",
  "stage.advanceTooFew":
    "Fewer than two participants advance from the earlier stage",
  "stage.tooMany": "A stage may have at most {max} participants",
  "stage.thirdPlaceNeedsFour":
    "A third-place match needs at least 4 participants",
  "stage.nextRound": "Round {round} paired",
  "stage.notSwiss": "Only a Swiss stage pairs its next round",
  "stage.roundNotComplete":
    "The current round is not finished: enter every result first",
  "stage.allRoundsPlayed": "Every round of this stage has been played",
  "stage.disqualified":
    "Participant disqualified: their remaining matches go to their opponents",
  "stage.notParticipant":
    "This participant plays in none of the tournament’s stages",
  "stage.alreadyDisqualified": "This participant is already disqualified",
  "match.notFound": "Match not found",
  "match.saved": "Result saved",
  "match.updated": "Match updated",
  "match.reset": "Result withdrawn",
  "match.preview": "This change resets the results of {count}",
  "match.stale":
    "Another admin has changed this match. The newer version is shown.",
  "match.notReady":
    "Both sides of the match are not known yet: enter the result once they are",
  "match.bye": "This is a bye: it has no result",
  "match.noResult": "The match has no result yet",
  "match.result.noScore": "Enter both sides’ scores",
  "match.result.draw": "Draws are allowed only in round robin and Swiss",
  "match.result.bestOf":
    "The score does not fit the format: the match is won at {wins}",
  "match.result.gameDraw": "A game cannot end in a draw",
  "match.result.gamesAfterDecided": "No game can follow the deciding one",
  "match.result.gamesMismatch":
    "The match score does not match the games’ scores",
  "match.result.tooManyGames": "More games than the format allows (Bo{bestOf})",
  "count.matchResults.one": "{count} match",
  "count.matchResults.few": "{count} matches",
  "count.matchResults.many": "{count} matches",
  "count.matchResults.other": "{count} matches",
};
