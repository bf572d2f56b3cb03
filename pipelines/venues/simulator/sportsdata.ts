// The sports data source: team rosters that player props are resolved against (canonical player
// keys `<sports_data_source>_<league>_<athlete_id>`, here source `sds`). In: the world's rosters.
// Out: `GET /sportsdata/{league}/teams` and `GET /sportsdata/{league}/teams/{code}/roster`. A team
// marked with a roster gap in the world answers 404 ("a missing roster removes the prop").
import type { FastifyInstance } from 'fastify';
import type { SimCtx } from './store.ts';
import { LEAGUES, type League, TEAMS } from './teams.ts';

export const SPORTS_DATA_SOURCE = 'sds';

export function sportsDataRoutes(app: FastifyInstance, ctx: SimCtx): void {
  const gaps = new Set(ctx.world.games.filter((g) => g.rosterGap).map((g) => `${g.league}:${g.rosterGap}`));
  app.get('/sportsdata/:league/teams', async (req, reply) => {
    const lg = (req.params as { league: string }).league.toLowerCase() as League;
    if (!LEAGUES.includes(lg)) return reply.code(404).send({ message: 'unknown league' });
    return { source: SPORTS_DATA_SOURCE, league: lg, teams: TEAMS[lg].map((t) => ({ code: t.code, city: t.city, nickname: t.nickname, name: t.name })) };
  });
  app.get('/sportsdata/:league/teams/:code/roster', async (req, reply) => {
    const p = req.params as { league: string; code: string };
    const lg = p.league.toLowerCase() as League;
    const code = p.code.toUpperCase();
    const players = ctx.world.rosters.get(`${lg}:${code}`);
    if (!players || gaps.has(`${lg}:${code}`)) return reply.code(404).send({ message: `no roster for ${lg} ${code}` });
    return {
      source: SPORTS_DATA_SOURCE,
      league: lg,
      team: code,
      // Updated once a day (an hour before midnight UTC), as a source republishes rosters: the same
      // answer all day, so a reader that writes only changed rosters writes each once a day. A stale
      // roster: last updated 10 days before that (the source stopped updating this team).
      updated_at: new Date(Math.floor(ctx.clock.now() / 86400e3) * 86400e3 - (ctx.world.staleRosters.has(`${lg}:${code}`) ? 10 * 86400e3 : 3600e3)).toISOString(),
      athletes: players.map((x) => ({ id: x.athleteId, name: x.name, position: x.position, jersey: x.jersey })),
    };
  });
}
