import { z } from "zod";

/** What the conversation agent hands the browser: what to do and find, and the page to start on. */
export const BrowserDelegationSchema = z.object({
  task: z.string().min(1),
  url: z.string().min(1),
});
export type BrowserDelegation = z.input<typeof BrowserDelegationSchema>;

/** A picture the browser saved into the session (an upload now). */
export const SavedImageSchema = z.object({ id: z.string(), name: z.string(), url: z.string() });

/** What the browser finishes with (`answer`) or gives up with (`reason`), and the pictures it saved. */
export const BrowserOutputsSchema = z.object({
  answer: z.string().optional(),
  reason: z.string().optional(),
  images: z.array(SavedImageSchema).default([]),
});
