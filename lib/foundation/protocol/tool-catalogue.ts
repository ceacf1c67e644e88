import { z } from "zod";

/** One vision tool as the kernel package describes it (python/argus/tools/catalogue.py). */
export const ToolCatalogueEntrySchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  signature: z.string().max(400),
  summary: z.string().max(400),
  category: z.string().max(40),
  /** When to reach for it, from the docstring's "When to use:" ('' when it says nothing). */
  when: z.string().max(1000),
});
export type ToolCatalogueEntry = z.infer<typeof ToolCatalogueEntrySchema>;

export const ToolCatalogueSchema = z.array(ToolCatalogueEntrySchema).max(200);
