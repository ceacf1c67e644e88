/** A JSON object as read from disk, the database or a client, before it is validated. */
export type Dict = Record<string, unknown>;

export function isDict(value: unknown): value is Dict {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
