// GET /v1/categories (spec: "GET /v1/categories"): the eleven canonical categories, the same
// values the catalog's `category` field and filter use. In: nothing. Out: {data: [Category]}.
import { CATEGORIES, type Category } from '../table.ts';
import type { RouteHandler } from '../../types.ts';

const DESCRIPTIONS: Record<Category, [string, string]> = {
  sports: ['Sports', 'Games, matches, tournaments, player and season outcomes.'],
  politics: ['Politics', 'Elections, legislation, appointments and government actions.'],
  crypto: ['Crypto', 'Cryptocurrency prices, protocols and on-chain events.'],
  finance: ['Finance', 'Stocks, indices, commodities, rates and company events.'],
  economics: ['Economics', 'Macroeconomic releases: inflation, employment, growth, central banks.'],
  weather: ['Weather', 'Temperatures, precipitation, storms and climate readings.'],
  culture: ['Culture', 'Awards, media, public figures and social trends.'],
  technology: ['Technology', 'Products, launches, AI and technology companies.'],
  entertainment: ['Entertainment', 'Film, television, music, streaming and gaming.'],
  other: ['Other', 'Markets that fit none of the named categories.'],
  unknown: ['Unknown', 'Markets the service could not yet classify.'],
};

export const CATEGORY_LIST = CATEGORIES.map((id) => ({ id, name: DESCRIPTIONS[id][0], description: DESCRIPTIONS[id][1] }));
const body = { data: CATEGORY_LIST };

export const categories: RouteHandler = async () => ({ body });
