import { z } from "zod";
import { FUNCTION_NAME } from "@/lib/features/functions/function-name";

/** Path and query values of the function routes, validated once for all of them. */
export const FunctionNameSchema = z.string().regex(FUNCTION_NAME, "not a Python function name");
export const VersionSchema = z.coerce.number().int().min(1).max(1_000_000);
