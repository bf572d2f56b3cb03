// SQL text helpers for the catalog's statements (values that cannot be bound as parameters, such
// as partition names, are quoted here).

/** Quote a string literal for ClickHouse SQL. */
export const lit = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
