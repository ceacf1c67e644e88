/**
 * The arguments of every Computer action, validated with zod where they enter
 * (they come from a model), and turned into one plain sentence when they fail.
 */
import { z } from "zod";
import { badAction } from "./errors";
import { MOUSE_BUTTONS } from "./computer-types";

export const Coordinate = z.number().finite();
export const PointSchema = z.object({ x: Coordinate, y: Coordinate });
export const ButtonSchema = z.enum(MOUSE_BUTTONS);
/** Pixels one scroll may move; more is a mistake rather than a wish. */
export const ScrollDelta = z.number().finite().min(-20_000).max(20_000);
export const TextSchema = z.string().max(10_000);
export const KeysSchema = z.array(z.string().min(1).max(64)).min(1).max(8);
export const DragPathSchema = z.array(PointSchema).min(2).max(500);
export const WaitSchema = z.number().int().min(0).max(30_000);
export const UrlSchema = z.string().trim().min(1).max(8192);

/** Parses or throws bad_request:browser naming the argument. */
export function parseArg<T>(schema: z.ZodType<T>, value: unknown, name: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = [name, ...(issue?.path ?? []).map(String)].join(".");
  throw badAction(`${where}: ${issue?.message ?? "invalid value"}.`, name);
}
