// Which gateway commands answer with a list, and where in `data` it is: those give
// --format csv|tsv, one row per item (the names are the gateway's own: the seed shows none).
// Read when `fcast cmd` registers its subcommands, so it holds nothing but this table.
export const GATEWAY_LISTS: Readonly<Record<string, readonly string[]>> = {
  snapshot: ['symbols'],
  search: ['matches'],
  opportunities: ['items'],
  macro: ['rates', 'indices', 'fx', 'commodities'],
  calendar: ['sessions'],
  events: ['events'],
};
