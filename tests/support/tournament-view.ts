import type { Tournament } from '../../src/lib/api/tournaments.ts';

/** A tournament as the API lists it, for rendering the islands that draw one: a pending solo cup without windows, changed as given. */
export const tournamentView = (changes: Partial<Tournament> = {}): Tournament => ({
  _id: 't1',
  title: 'Кубок',
  name: 'Кубок',
  description: '',
  date: '2031-06-01T15:00:00.000Z',
  status: 'pending',
  soloOnly: true,
  game: 'g1',
  gameName: 'CS2',
  image: null,
  imageUrl: null,
  winner: null,
  maxParticipants: null,
  registrationOpensAt: null,
  registrationClosesAt: null,
  checkInEnabled: false,
  checkInOpensAt: null,
  checkInClosesAt: null,
  confirmationMinutes: 15,
  timeZone: null,
  maps: null,
  vetoStarter: 'higherSeed',
  organisation: null,
  ...changes,
});
